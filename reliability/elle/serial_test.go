package elle

import (
	"math/rand"
	"testing"
)

// serialHistory runs random transactions one at a time against an in-memory
// store: a serial history, which must show no anomaly whatever its size.
// Some transactions fail (their writes discarded) or end :info (applied or
// not at random).
func serialHistory(model Model, txns int, seed int64) History {
	rng := rand.New(rand.NewSource(seed))
	lists := map[int][]int{}
	regs := map[int]*int{}
	next := map[int]int{}
	var h History
	for i := 0; i < txns; i++ {
		process := rng.Intn(5)
		outcome := []OpType{OK, OK, OK, OK, Fail, Info}[rng.Intn(6)]
		applied := outcome == OK || (outcome == Info && rng.Intn(2) == 0)
		workLists := map[int][]int{}
		workRegs := map[int]*int{}
		list := func(k int) []int {
			if l, ok := workLists[k]; ok {
				return l
			}
			return lists[k]
		}
		reg := func(k int) *int {
			if v, ok := workRegs[k]; ok {
				return v
			}
			return regs[k]
		}
		var mops []Mop
		for n := 1 + rng.Intn(4); n > 0; n-- {
			k := rng.Intn(4)
			read := rng.Intn(2) == 0
			switch {
			case read && model == ListAppend:
				l := list(k)
				mops = append(mops, ReadList(k, append([]int(nil), l...)...))
			case read:
				m := ReadNil(k)
				if v := reg(k); v != nil {
					m = ReadReg(k, *v)
				}
				mops = append(mops, m)
			default:
				next[k]++
				v := next[k]
				if model == ListAppend {
					workLists[k] = append(append([]int(nil), list(k)...), v)
					mops = append(mops, AppendOp(k, v))
				} else {
					workRegs[k] = &v
					mops = append(mops, WriteOp(k, v))
				}
			}
		}
		if applied {
			for k, l := range workLists {
				lists[k] = l
			}
			for k, v := range workRegs {
				regs[k] = v
			}
		}
		h = append(h, Op{Process: process, Type: Invoke, Txn: forgetReads(mops)})
		h = append(h, Op{Process: process, Type: outcome, Txn: mops})
	}
	return h
}

func TestRandomSerialHistoriesAreClean(t *testing.T) {
	for _, model := range []Model{ListAppend, Register} {
		for seed := int64(1); seed <= 20; seed++ {
			r, err := Check(model, serialHistory(model, 2000, seed))
			if err != nil {
				t.Fatalf("%s seed %d: %v", model, seed, err)
			}
			if len(r.Anomalies) > 0 {
				t.Fatalf("%s seed %d: %d anomalies, first:\n%s", model, seed, len(r.Anomalies), r.Anomalies[0])
			}
			if r.OK == 0 || r.Failed == 0 || r.Indeterminate == 0 {
				t.Fatalf("%s seed %d: outcomes %d/%d/%d", model, seed, r.OK, r.Failed, r.Indeterminate)
			}
		}
	}
}
