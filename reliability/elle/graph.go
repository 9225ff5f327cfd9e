package elle

import (
	"fmt"
	"sort"
)

// graph is the dependency graph over the transactions that committed or may
// have (:ok and :info); a failed transaction never stands in it. Between two
// transactions it keeps every kind of edge seen and one key for each.
type graph struct {
	txns      []*Txn
	edges     []map[int]*edgeSet // edges[from][to]
	neighbors [][]int            // each node's targets, ascending; built by cycles
}

type edgeSet struct {
	kinds EdgeKind
	keys  [3]int // the key behind each kind: WW, WR, RW
}

func kindIndex(k EdgeKind) int {
	switch k {
	case WW:
		return 0
	case WR:
		return 1
	}
	return 2
}

func newGraph(txns []*Txn) *graph {
	return &graph{txns: txns, edges: make([]map[int]*edgeSet, len(txns))}
}

// add records that from must precede to; an edge to or from a missing
// (never written) or failed transaction, or a transaction to itself, is no
// dependency.
func (g *graph) add(from, to *Txn, kind EdgeKind, key int) {
	if from == nil || to == nil || from == to || !committedOrMaybe(from) || !committedOrMaybe(to) {
		return
	}
	out := g.edges[from.ID]
	if out == nil {
		out = map[int]*edgeSet{}
		g.edges[from.ID] = out
	}
	e := out[to.ID]
	if e == nil {
		e = &edgeSet{}
		out[to.ID] = e
	}
	if e.kinds&kind == 0 {
		e.kinds |= kind
		e.keys[kindIndex(kind)] = key
	}
}

// sortNeighbors fixes each node's targets in ascending order, so that every
// search is deterministic.
func (g *graph) sortNeighbors() {
	g.neighbors = make([][]int, len(g.txns))
	for from, out := range g.edges {
		for to := range out {
			g.neighbors[from] = append(g.neighbors[from], to)
		}
		sort.Ints(g.neighbors[from])
	}
}

// successors lists from's targets over edges of the allowed kinds.
func (g *graph) successors(from int, allowed EdgeKind) []int {
	var out []int
	for _, to := range g.neighbors[from] {
		if g.edges[from][to].kinds&allowed != 0 {
			out = append(out, to)
		}
	}
	return out
}

// edge labels the step from→to with the first of the preferred kinds it
// has (any of its kinds if none: the searches only step along edges of
// the kinds they prefer).
func (g *graph) edge(from, to int, preferred ...EdgeKind) Edge {
	e := g.edges[from][to]
	kind := e.kinds & -e.kinds
	for _, k := range preferred {
		if e.kinds&k != 0 {
			kind = k
			break
		}
	}
	return Edge{From: g.txns[from], To: g.txns[to], Kind: kind, Key: e.keys[kindIndex(kind)]}
}

// components are the strongly connected components (Tarjan) with more than
// one transaction, of the subgraph of the allowed kinds over nodes.
func (g *graph) components(nodes []int, allowed EdgeKind) [][]int {
	inSet := map[int]bool{}
	for _, n := range nodes {
		inSet[n] = true
	}
	index := map[int]int{}
	low := map[int]int{}
	onStack := map[int]bool{}
	var stack []int
	var out [][]int
	var visit func(v int)
	visit = func(v int) {
		index[v] = len(index)
		low[v] = index[v]
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range g.successors(v, allowed) {
			if !inSet[w] {
				continue
			}
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var component []int
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			component = append(component, w)
			if w == v {
				break
			}
		}
		if len(component) > 1 {
			sort.Ints(component)
			out = append(out, component)
		}
	}
	for _, n := range nodes {
		if _, seen := index[n]; !seen {
			visit(n)
		}
	}
	return out
}

// path is a shortest path from→to over edges of the allowed kinds inside
// the set, by breadth-first search; nil if there is none (or from is to).
// It returns the nodes from `from` to `to`.
func (g *graph) path(from, to int, allowed EdgeKind, inSet map[int]bool) []int {
	if from == to {
		return nil
	}
	parent := g.reachable(from, allowed, inSet)
	if _, found := parent[to]; !found {
		return nil
	}
	return unwind(parent, from, to)
}

// reachable is every node of the set reachable from `from` over edges of the
// allowed kinds, with its parent on a shortest path.
func (g *graph) reachable(from int, allowed EdgeKind, inSet map[int]bool) map[int]int {
	parent := map[int]int{from: from}
	queue := []int{from}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range g.successors(v, allowed) {
			if _, seen := parent[w]; !seen && inSet[w] {
				parent[w] = v
				queue = append(queue, w)
			}
		}
	}
	return parent
}

func unwind(parent map[int]int, from, to int) []int {
	nodes := []int{to}
	for v := to; v != from; {
		v = parent[v]
		nodes = append(nodes, v)
	}
	for i, j := 0, len(nodes)-1; i < j; i, j = i+1, j-1 {
		nodes[i], nodes[j] = nodes[j], nodes[i]
	}
	return nodes
}

func setOf(nodes []int) map[int]bool {
	set := make(map[int]bool, len(nodes))
	for _, n := range nodes {
		set[n] = true
	}
	return set
}

// cycles finds the cycles of the graph and names them. Each strongly
// connected component is searched, in this order, for a cycle of ww edges
// only (G0), of ww and wr edges with a wr (G1c), and of one rw edge closed
// by ww and wr edges (G-single); one example of each kind is reported per
// component. A component with none of these has only cycles of two or more
// rw edges, and its shortest cycle is reported as G2-item.
func (g *graph) cycles() []Anomaly {
	g.sortNeighbors()
	all := make([]int, len(g.txns))
	for i := range all {
		all[i] = i
	}
	var out []Anomaly
	for _, component := range g.components(all, WW|WR|RW) {
		found := false
		for _, kind := range []func([]int) (Anomaly, bool){g.g0, g.g1c, g.gSingle} {
			if a, ok := kind(component); ok {
				out = append(out, a)
				found = true
			}
		}
		if !found {
			out = append(out, g.g2(component))
		}
	}
	return out
}

func (g *graph) cycleAnomaly(kind Kind, edges []Edge) Anomaly {
	txns := make([]*Txn, len(edges))
	for i, e := range edges {
		txns[i] = e.From
	}
	return Anomaly{Kind: kind, Txns: txns, Cycle: edges,
		Detail: fmt.Sprintf("a cycle of %d transactions", len(edges))}
}

// pathEdges labels each step of a path given as its nodes.
func (g *graph) pathEdges(nodes []int, preferred ...EdgeKind) []Edge {
	edges := make([]Edge, 0, len(nodes))
	for i := 0; i+1 < len(nodes); i++ {
		edges = append(edges, g.edge(nodes[i], nodes[i+1], preferred...))
	}
	return edges
}

// closeCycle labels the cycle first→…→last→first given as its nodes.
func (g *graph) closeCycle(nodes []int, preferred ...EdgeKind) []Edge {
	return g.pathEdges(append(append([]int(nil), nodes...), nodes[0]), preferred...)
}

func (g *graph) g0(component []int) (Anomaly, bool) {
	inner := g.components(component, WW)
	if len(inner) == 0 {
		return Anomaly{}, false
	}
	c := inner[0]
	first := c[0]
	var best []int
	for _, next := range g.successors(first, WW) {
		if p := g.path(next, first, WW, setOf(c)); p != nil && (best == nil || len(p) < len(best)) {
			best = append([]int{first}, p[:len(p)-1]...)
		}
	}
	return g.cycleAnomaly(G0, g.closeCycle(best, WW)), true
}

// g1c: a wr edge a→b whose b leads back to a over ww and wr edges.
func (g *graph) g1c(component []int) (Anomaly, bool) {
	for _, c := range g.components(component, WW|WR) {
		inSet := setOf(c)
		for _, a := range c {
			for _, b := range g.successors(a, WR) {
				if !inSet[b] {
					continue
				}
				if p := g.path(b, a, WW|WR, inSet); p != nil {
					edges := append([]Edge{g.edge(a, b, WR)}, g.pathEdges(p, WW, WR)...)
					return g.cycleAnomaly(G1c, edges), true
				}
			}
		}
	}
	return Anomaly{}, false
}

// gSingle: an rw edge a→b whose b leads back to a over ww and wr edges.
// One search per distinct b finds every such a at once.
func (g *graph) gSingle(component []int) (Anomaly, bool) {
	inSet := setOf(component)
	sources := map[int][]int{} // b → the a of each rw edge a→b
	var targets []int
	for _, a := range component {
		for _, b := range g.successors(a, RW) {
			if !inSet[b] {
				continue
			}
			if sources[b] == nil {
				targets = append(targets, b)
			}
			sources[b] = append(sources[b], a)
		}
	}
	sort.Ints(targets)
	for _, b := range targets {
		parent := g.reachable(b, WW|WR, inSet)
		for _, a := range sources[b] {
			if _, ok := parent[a]; ok {
				p := unwind(parent, b, a)
				edges := append([]Edge{g.edge(a, b, RW)}, g.pathEdges(p, WW, WR)...)
				return g.cycleAnomaly(GSingle, edges), true
			}
		}
	}
	return Anomaly{}, false
}

// g2: the shortest cycle through the component's first few transactions.
func (g *graph) g2(component []int) Anomaly {
	const starts = 16 // enough for a short example; every cycle here is G2
	inSet := setOf(component)
	var best []int
	for i, first := range component {
		if i == starts {
			break
		}
		for _, next := range g.successors(first, WW|WR|RW) {
			if !inSet[next] {
				continue
			}
			if p := g.path(next, first, WW|WR|RW, inSet); p != nil && (best == nil || len(p) < len(best)) {
				best = append([]int{first}, p[:len(p)-1]...)
			}
		}
	}
	return g.cycleAnomaly(G2, g.closeCycle(best, WW, WR, RW))
}
