package elle

import (
	"strings"
	"testing"
)

// builder writes histories by hand: each transaction invoked and completed
// at once (the checker does not use real-time order).
type builder struct{ h History }

func (b *builder) txn(process int, outcome OpType, mops ...Mop) *builder {
	b.h = append(b.h, Op{Process: process, Type: Invoke, Txn: forgetReads(mops)})
	b.h = append(b.h, Op{Process: process, Type: outcome, Txn: mops})
	return b
}

func (b *builder) ok(process int, mops ...Mop) *builder   { return b.txn(process, OK, mops...) }
func (b *builder) fail(process int, mops ...Mop) *builder { return b.txn(process, Fail, mops...) }
func (b *builder) info(process int, mops ...Mop) *builder { return b.txn(process, Info, mops...) }

func check(t *testing.T, model Model, b *builder) *Result {
	t.Helper()
	r, err := Check(model, b.h)
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	return r
}

// expect asserts that the result holds exactly the kinds named.
func expect(t *testing.T, r *Result, kinds ...Kind) {
	t.Helper()
	want := map[Kind]bool{}
	for _, k := range kinds {
		want[k] = true
	}
	got := r.Counts()
	for _, k := range kinds {
		if got[k] == 0 {
			t.Errorf("expected %s, found %v", k, got)
		}
	}
	for k := range got {
		if !want[k] {
			t.Errorf("unexpected %s", k)
		}
	}
	if t.Failed() {
		for _, a := range r.Anomalies {
			t.Log(a.String())
		}
	}
}

func TestCleanListAppend(t *testing.T) {
	b := (&builder{}).
		ok(1, AppendOp(1, 1), AppendOp(2, 1)).
		ok(2, ReadList(1, 1), AppendOp(1, 2), ReadList(1, 1, 2)).
		ok(1, ReadList(2, 1), ReadList(1, 1, 2), AppendOp(2, 2)).
		fail(2, AppendOp(1, 3)).
		ok(3, ReadList(1, 1, 2), ReadList(2, 1, 2), ReadList(3))
	r := check(t, ListAppend, b)
	expect(t, r)
	if r.OK != 4 || r.Failed != 1 || r.Indeterminate != 0 {
		t.Errorf("outcomes: %d ok, %d failed, %d info", r.OK, r.Failed, r.Indeterminate)
	}
}

func TestCleanRegister(t *testing.T) {
	b := (&builder{}).
		ok(1, ReadNil(1), WriteOp(1, 1)).
		ok(2, ReadReg(1, 1), WriteOp(1, 2), ReadReg(1, 2), ReadNil(2)).
		ok(1, ReadReg(1, 2), WriteOp(2, 1)).
		fail(3, ReadOp(2), WriteOp(2, 9)).
		ok(3, ReadReg(2, 1), ReadReg(1, 2))
	expect(t, check(t, Register, b))
}

func TestG0WriteCycle(t *testing.T) {
	// Key 1's order puts T0 before T1; key 2's puts T1 before T0.
	b := (&builder{}).
		ok(1, AppendOp(1, 1), AppendOp(2, 2)).
		ok(2, AppendOp(1, 2), AppendOp(2, 1)).
		ok(3, ReadList(1, 1, 2), ReadList(2, 1, 2))
	r := check(t, ListAppend, b)
	expect(t, r, G0)
	cycle := r.Anomalies[0].Cycle
	if len(cycle) != 2 || cycle[0].Kind != WW || cycle[1].Kind != WW {
		t.Errorf("G0 cycle: %v", r.Anomalies[0])
	}
}

func TestG1aAbortedRead(t *testing.T) {
	b := (&builder{}).
		fail(1, AppendOp(1, 1)).
		ok(2, ReadList(1, 1))
	expect(t, check(t, ListAppend, b), G1a)

	b = (&builder{}).
		fail(1, WriteOp(1, 1)).
		ok(2, ReadReg(1, 1))
	expect(t, check(t, Register, b), G1a)
}

func TestG1bIntermediateRead(t *testing.T) {
	b := (&builder{}).
		ok(1, WriteOp(1, 1), WriteOp(1, 2)).
		ok(2, ReadReg(1, 1))
	expect(t, check(t, Register, b), G1b)

	// The reader also precedes the writer's second append (rw) while
	// following its first (wr): the same read is a G-single cycle.
	b = (&builder{}).
		ok(1, AppendOp(1, 1), AppendOp(1, 2)).
		ok(2, ReadList(1, 1)).
		ok(3, ReadList(1, 1, 2))
	expect(t, check(t, ListAppend, b), G1b, GSingle)
}

func TestG1cCircularInformationFlow(t *testing.T) {
	b := (&builder{}).
		ok(1, AppendOp(1, 1), ReadList(2, 1)).
		ok(2, AppendOp(2, 1), ReadList(1, 1))
	r := check(t, ListAppend, b)
	expect(t, r, G1c)
	for _, e := range r.Anomalies[0].Cycle {
		if e.Kind != WR {
			t.Errorf("G1c edge %v, want wr", e.Kind)
		}
	}
}

func TestGSingleReadSkew(t *testing.T) {
	// T1 sees T0's append to key 2 but not its append to key 1.
	b := (&builder{}).
		ok(1, AppendOp(1, 1), AppendOp(2, 1)).
		ok(2, ReadList(1), ReadList(2, 1)).
		ok(3, ReadList(1, 1))
	r := check(t, ListAppend, b)
	expect(t, r, GSingle)
	out := r.Anomalies[0].String()
	for _, want := range []string{"T1 -rw(key 1)-> T0", "T0 -wr(key 2)-> T1", "T1 (process 2, ok): [r 1 nil] [r 2 [1]]"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}

	b = (&builder{}).
		ok(1, ReadNil(1), ReadNil(2), WriteOp(1, 1), WriteOp(2, 1)).
		ok(2, ReadNil(1), ReadReg(2, 1))
	expect(t, check(t, Register, b), GSingle)
}

func TestG2WriteSkew(t *testing.T) {
	b := (&builder{}).
		ok(1, ReadNil(1), ReadNil(2), WriteOp(1, 1)).
		ok(2, ReadNil(1), ReadNil(2), WriteOp(2, 1))
	r := check(t, Register, b)
	expect(t, r, G2)
	rw := 0
	for _, e := range r.Anomalies[0].Cycle {
		if e.Kind == RW {
			rw++
		}
	}
	if rw < 2 {
		t.Errorf("G2 cycle with %d rw edges: %v", rw, r.Anomalies[0])
	}

	b = (&builder{}).
		ok(1, ReadList(1), ReadList(2), AppendOp(1, 1)).
		ok(2, ReadList(1), ReadList(2), AppendOp(2, 1)).
		ok(3, ReadList(1, 1), ReadList(2, 1))
	expect(t, check(t, ListAppend, b), G2)
}

func TestLostUpdate(t *testing.T) {
	b := (&builder{}).
		ok(1, ReadReg(1, 1), WriteOp(1, 2)).
		ok(2, ReadReg(1, 1), WriteOp(1, 3)).
		ok(3, ReadNil(1), WriteOp(1, 1))
	// T0 and T1 both overwrote version 1 without seeing each other: a lost
	// update, and each read the version the other overwrote, a cycle
	// T0 -rw-> T1 -rw-> T0.
	expect(t, check(t, Register, b), LostUpdate, G2)

	b = (&builder{}).
		ok(1, ReadList(1), AppendOp(1, 1)).
		ok(2, ReadList(1), AppendOp(1, 2)).
		ok(3, ReadList(1, 1, 2))
	expect(t, check(t, ListAppend, b), LostUpdate, GSingle)
}

func TestInternalInconsistency(t *testing.T) {
	b := (&builder{}).
		ok(1, AppendOp(1, 1), ReadList(1))
	expect(t, check(t, ListAppend, b), Internal)

	b = (&builder{}).
		ok(1, AppendOp(1, 1)).
		ok(2, ReadList(1, 1), AppendOp(1, 2), ReadList(1, 1))
	expect(t, check(t, ListAppend, b), Internal)

	b = (&builder{}).
		ok(1, WriteOp(1, 5), ReadNil(1))
	expect(t, check(t, Register, b), Internal)

	b = (&builder{}).
		ok(1, WriteOp(1, 1)).
		ok(2, ReadReg(1, 1), ReadNil(1))
	expect(t, check(t, Register, b), Internal)
}

func TestDuplicateElements(t *testing.T) {
	b := (&builder{}).
		ok(1, AppendOp(1, 1)).
		ok(2, ReadList(1, 1, 1))
	expect(t, check(t, ListAppend, b), DuplicateElements)
}

func TestIncompatibleOrder(t *testing.T) {
	b := (&builder{}).
		ok(1, AppendOp(1, 1)).
		ok(2, AppendOp(1, 2)).
		ok(3, ReadList(1, 1, 2)).
		ok(4, ReadList(1, 2))
	expect(t, check(t, ListAppend, b), IncompatibleOrder)
}

func TestGarbageRead(t *testing.T) {
	b := (&builder{}).ok(1, ReadList(1, 7))
	expect(t, check(t, ListAppend, b), GarbageRead)
	b = (&builder{}).ok(1, ReadReg(1, 7))
	expect(t, check(t, Register, b), GarbageRead)
}

// An :info transaction may have committed: a read of its write is no
// anomaly, and once read it stands in the graph like a committed one.
func TestIndeterminate(t *testing.T) {
	b := (&builder{}).
		info(1, AppendOp(1, 1)).
		ok(2, ReadList(1, 1)).
		info(3, AppendOp(2, 1))
	r := check(t, ListAppend, b)
	expect(t, r)
	if r.Indeterminate != 2 {
		t.Errorf("%d indeterminate, want 2", r.Indeterminate)
	}

	// The read skew of TestGSingleReadSkew with the writer's outcome unknown.
	b = (&builder{}).
		info(1, AppendOp(1, 1), AppendOp(2, 1)).
		ok(2, ReadList(1), ReadList(2, 1)).
		ok(3, ReadList(1, 1))
	expect(t, check(t, ListAppend, b), GSingle)

	// A nil read precedes the writers that committed, not an :info writer
	// nobody saw: it may never have written.
	b = (&builder{}).
		info(1, WriteOp(1, 1), WriteOp(2, 1)).
		ok(2, ReadNil(1), ReadNil(2))
	expect(t, check(t, Register, b))

	// An invocation never completed is :info.
	h := History{{Process: 1, Type: Invoke, Txn: []Mop{AppendOp(1, 1)}}}
	r, err := Check(ListAppend, h)
	if err != nil || r.Indeterminate != 1 {
		t.Errorf("open invocation: %v, %+v", err, r)
	}
}

func TestMalformedHistories(t *testing.T) {
	cases := map[string]History{
		"value written twice":           (&builder{}).ok(1, AppendOp(1, 1)).ok(2, AppendOp(1, 1)).h,
		"completion without invocation": {{Process: 1, Type: OK, Txn: []Mop{AppendOp(1, 1)}}},
		"two open invocations": {
			{Process: 1, Type: Invoke, Txn: []Mop{AppendOp(1, 1)}},
			{Process: 1, Type: Invoke, Txn: []Mop{AppendOp(1, 2)}},
		},
		"completion unlike its invocation": {
			{Process: 1, Type: Invoke, Txn: []Mop{AppendOp(1, 1)}},
			{Process: 1, Type: OK, Txn: []Mop{AppendOp(1, 2)}},
		},
		"ok read without result": {
			{Process: 1, Type: Invoke, Txn: []Mop{ReadOp(1)}},
			{Process: 1, Type: OK, Txn: []Mop{ReadOp(1)}},
		},
		"register write in a list history": (&builder{}).ok(1, WriteOp(1, 1)).h,
	}
	for name, h := range cases {
		if _, err := Check(ListAppend, h); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestLevelExpectations(t *testing.T) {
	writeSkew := (&builder{}).
		ok(1, ReadNil(1), ReadNil(2), WriteOp(1, 1)).
		ok(2, ReadNil(1), ReadNil(2), WriteOp(2, 1))
	r := check(t, Register, writeSkew)
	if n := len(r.ForbiddenAt(Snapshot)); n != 0 {
		t.Errorf("SNAPSHOT forbids write skew (%d)", n)
	}
	for _, level := range []Level{RepeatableRead, Serializable} {
		if n := len(r.ForbiddenAt(level)); n != 1 {
			t.Errorf("%s: %d forbidden anomalies in write skew, want 1", level, n)
		}
	}
	for _, k := range []Kind{G0, G1a, G1b, G1c, GSingle, LostUpdate, Internal, DuplicateElements, IncompatibleOrder, GarbageRead} {
		for _, level := range Levels {
			if !level.Forbids(k) {
				t.Errorf("%s allows %s", level, k)
			}
		}
	}
	for _, name := range []string{"snapshot", "Repeatable  Read", "REPEATABLEREAD", "SERIALIZABLE"} {
		if _, err := ParseLevel(name); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseLevel("READ COMMITTED"); err == nil {
		t.Error("READ COMMITTED parsed")
	}
}
