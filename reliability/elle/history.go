// Package elle checks transaction histories for isolation anomalies the way
// Jepsen's Elle does: it infers each key's version order from what the
// transactions read, builds the write-write, write-read and read-write
// dependency graph over the transactions that committed (or may have), and
// names the cycles it finds (G0, G1c, G-single, G2-item) together with the
// anomalies visible without a cycle (G1a, G1b, lost update, internal
// inconsistency, duplicate elements, incompatible orders, garbage reads).
//
// Two data models are supported. List-append: a transaction appends unique
// values to lists and reads whole lists, so a read reveals the order of every
// append before it. Read-write register: a transaction writes unique values
// and reads single values, so orders come only from the initial nil and from
// what a transaction read before it overwrote a key.
package elle

import (
	"fmt"
	"strconv"
	"strings"
)

// Model is the data model a history's micro-operations use.
type Model int

const (
	ListAppend Model = iota
	Register
)

func (m Model) String() string {
	if m == ListAppend {
		return "list-append"
	}
	return "register"
}

// MopKind is what one micro-operation does.
type MopKind int

const (
	Append MopKind = iota // list-append: append Value to the list at Key
	Write                 // register: set Key to Value
	Read                  // read Key: List (list-append) or Reg (register)
)

// Mop is one micro-operation of a transaction. A read's result is known only
// in an :ok completion; in an invocation and in :fail or :info it is not.
type Mop struct {
	Kind  MopKind
	Key   int
	Value int   // the appended or written value
	Known bool  // a read whose result was observed
	List  []int // list-append read: the list (nil or empty: the empty list)
	Reg   *int  // register read: the value, nil for the initial (never written) state
}

// AppendOp appends v to the list at key k.
func AppendOp(k, v int) Mop { return Mop{Kind: Append, Key: k, Value: v} }

// WriteOp sets register k to v.
func WriteOp(k, v int) Mop { return Mop{Kind: Write, Key: k, Value: v} }

// ReadOp is a read of k whose result is not known yet (an invocation).
func ReadOp(k int) Mop { return Mop{Kind: Read, Key: k} }

// ReadList is a list-append read of k that returned list.
func ReadList(k int, list ...int) Mop {
	return Mop{Kind: Read, Key: k, Known: true, List: list}
}

// ReadReg is a register read of k that returned v.
func ReadReg(k, v int) Mop { return Mop{Kind: Read, Key: k, Known: true, Reg: &v} }

// ReadNil is a register read of k that found it never written.
func ReadNil(k int) Mop { return Mop{Kind: Read, Key: k, Known: true} }

func (m Mop) isWrite() bool { return m.Kind == Append || m.Kind == Write }

func (m Mop) String() string {
	switch m.Kind {
	case Append:
		return fmt.Sprintf("append %d %d", m.Key, m.Value)
	case Write:
		return fmt.Sprintf("w %d %d", m.Key, m.Value)
	}
	switch {
	case !m.Known:
		return fmt.Sprintf("r %d ?", m.Key)
	case m.Reg != nil:
		return fmt.Sprintf("r %d %d", m.Key, *m.Reg)
	case m.List != nil:
		return fmt.Sprintf("r %d %s", m.Key, formatList(m.List))
	default:
		// Nil on both: an empty list read or a register read of nil;
		// the history's model tells which, so print what both share.
		return fmt.Sprintf("r %d nil", m.Key)
	}
}

func formatList(list []int) string {
	parts := make([]string, len(list))
	for i, v := range list {
		parts[i] = strconv.Itoa(v)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// OpType is an operation's place in a history: the invocation, or one of the
// three completions. :info means the outcome is unknown (the connection was
// lost, the server killed mid-commit): the transaction may or may not have
// committed.
type OpType int

const (
	Invoke OpType = iota
	OK
	Fail
	Info
)

func (t OpType) String() string {
	return [...]string{"invoke", "ok", "fail", "info"}[t]
}

// Op is one event of a history: a process invoking a transaction, or that
// transaction's completion. A process runs one transaction at a time.
type Op struct {
	Process int
	Type    OpType
	Txn     []Mop
}

// History is the events in the order they happened.
type History []Op

// Txn is a transaction of the history: an invocation paired with its
// completion. Its Mops are the completion's for :ok (reads known) and the
// invocation's otherwise.
type Txn struct {
	ID      int // its position among the history's transactions
	Process int
	Status  OpType // OK, Fail or Info
	Mops    []Mop
}

func (t *Txn) String() string {
	mops := make([]string, len(t.Mops))
	for i, m := range t.Mops {
		mops[i] = "[" + m.String() + "]"
	}
	return fmt.Sprintf("T%d (process %d, %s): %s", t.ID, t.Process, t.Status, strings.Join(mops, " "))
}

// transactions pairs each invocation with the same process's next
// completion. An invocation never completed is :info, as Elle treats it. A
// completion without an invocation, a second invocation while one is open,
// or an :ok completion whose micro-operations do not match its invocation's
// makes the history malformed.
func transactions(h History) ([]*Txn, error) {
	var txns []*Txn
	open := map[int]*Txn{}
	for i, op := range h {
		if op.Type == Invoke {
			if _, busy := open[op.Process]; busy {
				return nil, fmt.Errorf("event %d: process %d invokes a transaction while one is open", i, op.Process)
			}
			t := &Txn{ID: len(txns), Process: op.Process, Status: Info, Mops: op.Txn}
			txns = append(txns, t)
			open[op.Process] = t
			continue
		}
		t, ok := open[op.Process]
		if !ok {
			return nil, fmt.Errorf("event %d: process %d completes a transaction it never invoked", i, op.Process)
		}
		delete(open, op.Process)
		t.Status = op.Type
		if op.Type == OK {
			if err := sameShape(t.Mops, op.Txn); err != nil {
				return nil, fmt.Errorf("event %d: T%d: %w", i, t.ID, err)
			}
			t.Mops = op.Txn
		} else {
			t.Mops = forgetReads(t.Mops)
		}
	}
	return txns, nil
}

// sameShape checks that a completion reports the invoked micro-operations.
func sameShape(invoked, completed []Mop) error {
	if len(invoked) != len(completed) {
		return fmt.Errorf("completion has %d micro-operations, invocation %d", len(completed), len(invoked))
	}
	for i := range invoked {
		a, b := invoked[i], completed[i]
		if a.Kind != b.Kind || a.Key != b.Key || (a.isWrite() && a.Value != b.Value) {
			return fmt.Errorf("micro-operation %d: completed [%s] but invoked [%s]", i, b, a)
		}
		if b.Kind == Read && !b.Known {
			return fmt.Errorf("micro-operation %d: an :ok read without its result", i)
		}
	}
	return nil
}

// forgetReads drops read results a :fail or :info completion might carry:
// they are not evidence of any committed state.
func forgetReads(mops []Mop) []Mop {
	out := make([]Mop, len(mops))
	for i, m := range mops {
		if m.Kind == Read {
			m = ReadOp(m.Key)
		}
		out[i] = m
	}
	return out
}
