package elle

import (
	"fmt"
	"sort"
)

// Result is what Check found in a history.
type Result struct {
	Model                     Model
	OK, Failed, Indeterminate int
	Anomalies                 []Anomaly
}

// Counts is how many anomalies of each kind were found.
func (r *Result) Counts() map[Kind]int {
	counts := map[Kind]int{}
	for _, a := range r.Anomalies {
		counts[a.Kind]++
	}
	return counts
}

// ForbiddenAt is the anomalies level does not allow.
func (r *Result) ForbiddenAt(level Level) []Anomaly {
	var out []Anomaly
	for _, a := range r.Anomalies {
		if level.Forbids(a.Kind) {
			out = append(out, a)
		}
	}
	return out
}

// Check analyses a history of the given model. An error means the history
// itself is malformed (unpaired events, a value written twice to one key),
// not that it shows an anomaly.
func Check(model Model, h History) (*Result, error) {
	txns, err := transactions(h)
	if err != nil {
		return nil, err
	}
	c := &checker{
		model:      model,
		txns:       txns,
		writer:     map[keyValue]*Txn{},
		finalWrite: map[txnKey]int{},
		external:   map[txnKey]externalRead{},
		graph:      newGraph(txns),
	}
	if err := c.indexWrites(); err != nil {
		return nil, err
	}
	c.checkInternal()
	for _, key := range c.keys() {
		if model == ListAppend {
			c.listKey(key)
		} else {
			c.registerKey(key)
		}
	}
	c.lostUpdates()
	c.anomalies = append(c.anomalies, c.graph.cycles()...)

	r := &Result{Model: model, Anomalies: c.anomalies}
	for _, t := range txns {
		switch t.Status {
		case OK:
			r.OK++
		case Fail:
			r.Failed++
		default:
			r.Indeterminate++
		}
	}
	return r, nil
}

type keyValue struct{ key, value int }
type txnKey struct{ txn, key int }

// externalRead is the state of a key a transaction observed from other
// transactions: its first read of the key, less its own appends before it.
type externalRead struct {
	list []int
	reg  *int
}

type checker struct {
	model      Model
	txns       []*Txn
	writer     map[keyValue]*Txn // who wrote each value, whatever its outcome
	finalWrite map[txnKey]int    // each transaction's last value written to a key
	external   map[txnKey]externalRead
	graph      *graph
	anomalies  []Anomaly
}

func (c *checker) report(kind Kind, detail string, txns ...*Txn) {
	c.anomalies = append(c.anomalies, Anomaly{Kind: kind, Txns: txns, Detail: detail})
}

// committedOrMaybe: a transaction that may stand in the dependency graph.
func committedOrMaybe(t *Txn) bool { return t.Status == OK || t.Status == Info }

func (c *checker) indexWrites() error {
	for _, t := range c.txns {
		for _, m := range t.Mops {
			if !m.isWrite() {
				continue
			}
			if (c.model == ListAppend) != (m.Kind == Append) {
				return fmt.Errorf("T%d: [%s] in a %s history", t.ID, m, c.model)
			}
			kv := keyValue{m.Key, m.Value}
			if other, dup := c.writer[kv]; dup {
				return fmt.Errorf("value %d written to key %d by both T%d and T%d: values must be unique per key",
					m.Value, m.Key, other.ID, t.ID)
			}
			c.writer[kv] = t
			c.finalWrite[txnKey{t.ID, m.Key}] = m.Value
		}
	}
	return nil
}

func (c *checker) keys() []int {
	seen := map[int]bool{}
	for _, t := range c.txns {
		for _, m := range t.Mops {
			seen[m.Key] = true
		}
	}
	keys := make([]int, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}

// checkInternal replays each committed transaction on its own: every read
// must show its earlier writes and reads of the key; a list read must not
// hold an element twice. It also records each transaction's external reads.
func (c *checker) checkInternal() {
	for _, t := range c.txns {
		if t.Status != OK {
			continue
		}
		type keyState struct {
			read     bool  // the transaction has read the key: expected is exact
			expected []int // list: the list it must read; register: expected[0] is the value
			isNil    bool  // register: it must read nil
			appended []int // own appends before the first read
		}
		states := map[int]*keyState{}
		for _, m := range t.Mops {
			s := states[m.Key]
			if s == nil {
				s = &keyState{}
				states[m.Key] = s
			}
			switch m.Kind {
			case Append:
				if s.read {
					s.expected = append(s.expected, m.Value)
				} else {
					s.appended = append(s.appended, m.Value)
				}
			case Write:
				s.read, s.expected, s.isNil = true, []int{m.Value}, false
			case Read:
				c.checkRead(t, m, s.read, s.expected, s.isNil, s.appended)
				if c.model == ListAppend {
					if !s.read {
						if hasSuffix(m.List, s.appended) {
							c.external[txnKey{t.ID, m.Key}] = externalRead{list: m.List[:len(m.List)-len(s.appended)]}
						}
					}
					s.expected = append([]int(nil), m.List...)
				} else {
					if !s.read {
						c.external[txnKey{t.ID, m.Key}] = externalRead{reg: m.Reg}
					}
					s.isNil = m.Reg == nil
					if !s.isNil {
						s.expected = []int{*m.Reg}
					}
				}
				s.read = true
			}
		}
	}
}

// checkRead compares one read with what the transaction's own earlier
// micro-operations on the key make certain.
func (c *checker) checkRead(t *Txn, m Mop, read bool, expected []int, isNil bool, appended []int) {
	if c.model == ListAppend {
		if dup, ok := duplicate(m.List); ok {
			c.report(DuplicateElements, fmt.Sprintf("key %d: element %d read twice in %s", m.Key, dup, formatList(m.List)), t)
		}
		switch {
		case read && !equal(m.List, expected):
			c.report(Internal, fmt.Sprintf("key %d: read %s, its own earlier operations make it %s",
				m.Key, formatList(m.List), formatList(expected)), t)
		case !read && !hasSuffix(m.List, appended):
			c.report(Internal, fmt.Sprintf("key %d: read %s, which does not end with its own appends %s",
				m.Key, formatList(m.List), formatList(appended)), t)
		}
		return
	}
	if !read {
		return
	}
	switch {
	case isNil && m.Reg != nil:
		c.report(Internal, fmt.Sprintf("key %d: read %d after reading nil", m.Key, *m.Reg), t)
	case !isNil && (m.Reg == nil || *m.Reg != expected[0]):
		c.report(Internal, fmt.Sprintf("key %d: read %s, its own earlier operations make it %d",
			m.Key, m.String(), expected[0]), t)
	}
}

// readValues checks that every value a committed read saw was written by a
// transaction that did not fail (G1a) and exists at all (garbage read).
func (c *checker) readValues(t *Txn, key int, values []int) {
	for _, v := range values {
		w := c.writer[keyValue{key, v}]
		switch {
		case w == nil:
			c.report(GarbageRead, fmt.Sprintf("key %d: value %d was never written", key, v), t)
		case w.Status == Fail && w != t:
			c.report(G1a, fmt.Sprintf("key %d: T%d read %d, written by T%d, which failed", key, t.ID, v, w.ID), t, w)
		}
	}
}

// intermediateRead reports a read of another transaction's value that was
// not that transaction's last write to the key (G1b).
func (c *checker) intermediateRead(t *Txn, key, v int) {
	w := c.writer[keyValue{key, v}]
	if w == nil || w == t || w.Status == Fail {
		return
	}
	if final := c.finalWrite[txnKey{w.ID, key}]; final != v {
		c.report(G1b, fmt.Sprintf("key %d: T%d read %d, which T%d later overwrote with %d", key, t.ID, v, w.ID, final), t, w)
	}
}

type keyedRead struct {
	txn  *Txn
	list []int
}

// listKey infers key's version order from the longest list read of it
// (every other read must be a prefix) and adds the dependencies it implies.
func (c *checker) listKey(key int) {
	var reads []keyedRead
	for _, t := range c.txns {
		if t.Status != OK {
			continue
		}
		for _, m := range t.Mops {
			if m.Kind == Read && m.Key == key {
				reads = append(reads, keyedRead{t, m.List})
				c.readValues(t, key, m.List)
			}
		}
		if ext, ok := c.external[txnKey{t.ID, key}]; ok && len(ext.list) > 0 {
			c.intermediateRead(t, key, ext.list[len(ext.list)-1])
		}
	}
	if len(reads) == 0 {
		return
	}
	longest := reads[0]
	for _, r := range reads[1:] {
		if len(r.list) > len(longest.list) {
			longest = r
		}
	}
	compatible := true
	for _, r := range reads {
		if !hasPrefix(longest.list, r.list) {
			compatible = false
			c.report(IncompatibleOrder, fmt.Sprintf("key %d: T%d read %s, T%d read %s: neither is a prefix of the other",
				key, r.txn.ID, formatList(r.list), longest.txn.ID, formatList(longest.list)), r.txn, longest.txn)
		}
	}
	if !compatible {
		return // no version order to infer dependencies from
	}
	order := longest.list
	writerAt := func(i int) *Txn { return c.writer[keyValue{key, order[i]}] }
	for i := 0; i+1 < len(order); i++ {
		c.graph.add(writerAt(i), writerAt(i+1), WW, key)
	}
	for _, t := range c.txns {
		ext, ok := c.external[txnKey{t.ID, key}]
		if !ok {
			continue
		}
		n := len(ext.list)
		if n > 0 {
			c.graph.add(writerAt(n-1), t, WR, key)
		}
		if n < len(order) {
			c.graph.add(t, writerAt(n), RW, key)
		}
	}
}

// registerKey orders key's versions by what the initial nil and each
// transaction's read-before-write tell, and adds the dependencies.
func (c *checker) registerKey(key int) {
	type version struct {
		initial bool // never written
		value   int
	}
	versionOf := func(reg *int) version {
		if reg == nil {
			return version{initial: true}
		}
		return version{value: *reg}
	}
	// successors[v] are the transactions seen to overwrite version v
	// directly: they read v, then wrote the key.
	successors := map[version][]*Txn{}
	observed := map[*Txn]bool{} // writers whose write a committed read saw
	for _, t := range c.txns {
		if t.Status != OK {
			continue
		}
		for _, m := range t.Mops {
			if m.Kind == Read && m.Key == key && m.Reg != nil {
				c.readValues(t, key, []int{*m.Reg})
				if w := c.writer[keyValue{key, *m.Reg}]; w != nil {
					observed[w] = true
				}
			}
		}
		ext, ok := c.external[txnKey{t.ID, key}]
		if !ok {
			continue
		}
		var readFrom *Txn
		if ext.reg != nil {
			c.intermediateRead(t, key, *ext.reg)
			readFrom = c.writer[keyValue{key, *ext.reg}]
			c.graph.add(readFrom, t, WR, key)
		}
		if _, writes := c.finalWrite[txnKey{t.ID, key}]; writes {
			successors[versionOf(ext.reg)] = append(successors[versionOf(ext.reg)], t)
			c.graph.add(readFrom, t, WW, key)
		}
	}
	// The initial nil precedes every version: a nil read precedes every
	// writer that may have committed, an edge standing for the path of
	// ww edges through the versions in between.
	var writers []*Txn
	for _, t := range c.txns {
		if _, writes := c.finalWrite[txnKey{t.ID, key}]; writes && (t.Status == OK || observed[t]) {
			writers = append(writers, t)
		}
	}
	for _, t := range c.txns {
		ext, ok := c.external[txnKey{t.ID, key}]
		if !ok {
			continue
		}
		next := successors[versionOf(ext.reg)]
		if ext.reg == nil {
			next = writers
		}
		for _, w := range next {
			c.graph.add(t, w, RW, key)
		}
	}
}

// lostUpdates reports committed transactions that read the same version of
// a key and then both wrote that key.
func (c *checker) lostUpdates() {
	type version struct {
		key  int
		read string
	}
	groups := map[version][]*Txn{}
	for tk, ext := range c.external {
		if _, writes := c.finalWrite[tk]; writes {
			v := version{tk.key, c.readText(ext)}
			groups[v] = append(groups[v], c.txns[tk.txn])
		}
	}
	versions := make([]version, 0, len(groups))
	for v, txns := range groups {
		if len(txns) > 1 {
			versions = append(versions, v)
			sort.Slice(txns, func(i, j int) bool { return txns[i].ID < txns[j].ID })
		}
	}
	sort.Slice(versions, func(i, j int) bool {
		if versions[i].key != versions[j].key {
			return versions[i].key < versions[j].key
		}
		return versions[i].read < versions[j].read
	})
	for _, v := range versions {
		txns := groups[v]
		c.report(LostUpdate, fmt.Sprintf("key %d: %d committed transactions read %s and wrote the key", v.key, len(txns), v.read), txns...)
	}
}

func (c *checker) readText(r externalRead) string {
	switch {
	case c.model == ListAppend:
		return formatList(r.list)
	case r.reg != nil:
		return fmt.Sprint(*r.reg)
	}
	return "nil"
}

func equal(a, b []int) bool {
	return len(a) == len(b) && hasPrefix(a, b)
}

func hasPrefix(list, prefix []int) bool {
	if len(prefix) > len(list) {
		return false
	}
	for i, v := range prefix {
		if list[i] != v {
			return false
		}
	}
	return true
}

func hasSuffix(list, suffix []int) bool {
	return len(suffix) <= len(list) && equal(list[len(list)-len(suffix):], suffix)
}

func duplicate(list []int) (int, bool) {
	seen := map[int]bool{}
	for _, v := range list {
		if seen[v] {
			return v, true
		}
		seen[v] = true
	}
	return 0, false
}
