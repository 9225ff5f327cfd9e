package elle

import (
	"fmt"
	"strings"
)

// Kind names an anomaly as Adya and Elle do.
type Kind string

const (
	// Cycles in the dependency graph.
	G0      Kind = "G0"       // write cycle: ww edges only
	G1c     Kind = "G1c"      // circular information flow: ww and wr edges, at least one wr
	GSingle Kind = "G-single" // exactly one rw edge (read skew)
	G2      Kind = "G2-item"  // two or more rw edges (write skew)

	// Visible without a cycle.
	G1a               Kind = "G1a"                // aborted read: a committed read of a failed transaction's write
	G1b               Kind = "G1b"                // intermediate read: a value its writer overwrote before committing
	LostUpdate        Kind = "lost-update"        // two committed transactions read one version of a key and both wrote it
	Internal          Kind = "internal"           // a transaction that does not read its own writes or earlier reads
	DuplicateElements Kind = "duplicate-elements" // a list read with an element twice
	IncompatibleOrder Kind = "incompatible-order" // two list reads of a key, neither a prefix of the other
	GarbageRead       Kind = "garbage-read"       // a read of a value no transaction wrote
)

// EdgeKind is one kind of dependency between two transactions.
type EdgeKind uint8

const (
	WW EdgeKind = 1 << iota // the second overwrote the first's write
	WR                      // the second read the first's write
	RW                      // the second overwrote the version the first read (anti-dependency)
)

func (k EdgeKind) String() string {
	switch k {
	case WW:
		return "ww"
	case WR:
		return "wr"
	case RW:
		return "rw"
	}
	return fmt.Sprintf("edges(%d)", uint8(k))
}

// Edge is one step of a cycle: From must precede To because of Key.
type Edge struct {
	From, To *Txn
	Kind     EdgeKind
	Key      int
}

// Anomaly is one finding: its kind, the transactions involved, for a cycle
// its edges, and what was seen.
type Anomaly struct {
	Kind   Kind
	Txns   []*Txn
	Cycle  []Edge
	Detail string
}

func (a Anomaly) String() string {
	var b strings.Builder
	b.WriteString(string(a.Kind))
	if a.Detail != "" {
		b.WriteString(": " + a.Detail)
	}
	if len(a.Cycle) > 0 {
		b.WriteString("\n  cycle: ")
		for _, e := range a.Cycle {
			fmt.Fprintf(&b, "T%d -%s(key %d)-> ", e.From.ID, e.Kind, e.Key)
		}
		fmt.Fprintf(&b, "T%d", a.Cycle[0].From.ID)
	}
	for _, t := range a.Txns {
		b.WriteString("\n  " + t.String())
	}
	return b.String()
}

// Level is an isolation level hekla offers memory-optimized tables.
type Level string

const (
	Snapshot       Level = "SNAPSHOT"
	RepeatableRead Level = "REPEATABLE READ"
	Serializable   Level = "SERIALIZABLE"
)

// Levels lists them weakest first.
var Levels = []Level{Snapshot, RepeatableRead, Serializable}

// Forbids says whether a history run at level may not show an anomaly.
//
// SERIALIZABLE forbids every anomaly. SNAPSHOT allows G2-item (write skew:
// two transactions each read what the other writes, a cycle with two rw
// edges) and forbids the rest; lost update is forbidden because the first
// writer of a row wins (41302). REPEATABLE READ in hekla, as in Hekaton,
// validates at commit that every version the transaction read is still the
// current one as of its end timestamp (41305 otherwise): an rw edge then can
// only point to a transaction that commits later, as ww and wr edges do, so
// no cycle can form among reads of single keys. What it does not validate is
// phantoms (rows a repeated range scan would newly see), and these histories
// read and write keys only by their primary key, so hekla's REPEATABLE READ
// must show none of these anomalies either, G2-item included.
func (l Level) Forbids(k Kind) bool {
	return !(l == Snapshot && k == G2)
}

// ParseLevel reads a level's name as SQL spells it (case-insensitive,
// REPEATABLEREAD as the table hint spells it too).
func ParseLevel(name string) (Level, error) {
	switch strings.ToUpper(strings.Join(strings.Fields(name), " ")) {
	case "SNAPSHOT":
		return Snapshot, nil
	case "REPEATABLE READ", "REPEATABLEREAD":
		return RepeatableRead, nil
	case "SERIALIZABLE":
		return Serializable, nil
	}
	return "", fmt.Errorf("unknown isolation level %q (SNAPSHOT, REPEATABLE READ, SERIALIZABLE)", name)
}
