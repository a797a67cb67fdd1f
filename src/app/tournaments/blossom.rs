//! Maximum-weight matching on a dense general graph, with incremental updates.
//!
//! The Dutch pairing system ranks candidate pairings by a long list of criteria, one
//! below the other. They are packed into one integer per pair, each criterion in its own
//! bit field, so that a maximum-weight matching optimises them in order; the integers are
//! far wider than 128 bits, hence [`Weight`]. The pairing code then re-solves the matching
//! many times, each time after changing the edges of a few players, so the solver keeps its
//! matching and dual solution between calls and only repairs what the changes disturbed.
//!
//! The solver is Edmonds' primal-dual blossom algorithm in the O(n³) form that keeps the
//! least-slack edge per vertex and per blossom. Vertex duals are kept doubled so that all
//! arithmetic stays integral. Unlike the textbook version, free vertices may start a stage
//! with different dual values (after an update), so a stage grows trees only from free
//! vertices whose dual is positive, ends an augmenting path at a free vertex whose dual is
//! zero, and, when an outer vertex's dual reaches zero, makes that vertex the free one.
//! Edges of weight zero do not exist.
//!
//! Two things keep re-solving cheap where many weights are equal (lower score groups,
//! whose edges only say "these two may meet"): changed vertices get the least feasible
//! dual and are matched at once to a free neighbour over a tight edge where there is one,
//! and a stage goes on after an augmentation, leaving the two trees it used alone, so
//! that one pass over the roots finds many disjoint augmenting paths before any dual
//! change.

use std::cmp::Ordering;

/// An unsigned integer of `L` 64-bit limbs (least significant first), with wrapping
/// arithmetic. Only the operations the pairing weights need.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Weight<const L: usize>(pub [u64; L]);

impl<const L: usize> Weight<L> {
    pub const ZERO: Self = Weight([0; L]);

    pub fn from_u64(v: u64) -> Self {
        let mut w = Self::ZERO;
        w.0[0] = v;
        w
    }

    #[inline]
    pub fn is_zero(&self) -> bool {
        self.0.iter().rev().all(|&l| l == 0)
    }

    #[inline]
    pub fn wrapping_add(&self, o: &Self) -> Self {
        let mut r = [0u64; L];
        let mut carry = false;
        for ((r, a), b) in r.iter_mut().zip(&self.0).zip(&o.0) {
            let (s1, c1) = a.overflowing_add(*b);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *r = s2;
            carry = c1 | c2;
        }
        Weight(r)
    }

    #[inline]
    pub fn wrapping_sub(&self, o: &Self) -> Self {
        let mut r = [0u64; L];
        let mut borrow = false;
        for ((r, a), b) in r.iter_mut().zip(&self.0).zip(&o.0) {
            let (s1, b1) = a.overflowing_sub(*b);
            let (s2, b2) = s1.overflowing_sub(borrow as u64);
            *r = s2;
            borrow = b1 | b2;
        }
        Weight(r)
    }

    pub fn add_u64(&self, v: u64) -> Self {
        self.wrapping_add(&Self::from_u64(v))
    }

    pub fn sub_u64(&self, v: u64) -> Self {
        self.wrapping_sub(&Self::from_u64(v))
    }

    /// Adds `value << bit`.
    pub fn add_at(&self, value: u64, bit: u32) -> Self {
        let mut add = Self::ZERO;
        let limb = (bit / 64) as usize;
        let off = bit % 64;
        if limb < L {
            add.0[limb] = value << off;
            if off > 0 && limb + 1 < L {
                add.0[limb + 1] = value >> (64 - off);
            }
        }
        self.wrapping_add(&add)
    }

    /// Adds 2^bit.
    pub fn add_bit(&self, bit: u32) -> Self {
        let mut one = Self::ZERO;
        let limb = (bit / 64) as usize;
        if limb < L {
            one.0[limb] = 1u64 << (bit % 64);
        }
        self.wrapping_add(&one)
    }

    pub fn shl(&self, bits: u32) -> Self {
        let mut r = [0u64; L];
        let limbs = (bits / 64) as usize;
        let rem = bits % 64;
        for i in (limbs..L).rev() {
            let src = i - limbs;
            let mut v = self.0[src] << rem;
            if rem > 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - rem);
            }
            r[i] = v;
        }
        Weight(r)
    }

    #[inline]
    pub fn shr1(&self) -> Self {
        let mut r = [0u64; L];
        for (i, r) in r.iter_mut().enumerate() {
            *r = self.0[i] >> 1;
            if i + 1 < L {
                *r |= self.0[i + 1] << 63;
            }
        }
        Weight(r)
    }

    #[inline]
    pub fn is_odd(&self) -> bool {
        self.0[0] & 1 == 1
    }
}

impl<const L: usize> Ord for Weight<L> {
    #[inline]
    fn cmp(&self, o: &Self) -> Ordering {
        for i in (0..L).rev() {
            match self.0[i].cmp(&o.0[i]) {
                Ordering::Equal => {}
                ord => return ord,
            }
        }
        Ordering::Equal
    }
}

impl<const L: usize> PartialOrd for Weight<L> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

const NONE: usize = usize::MAX;
const FREE: u8 = 0;
const OUTER: u8 = 1;
const INNER: u8 = 2;
/// Marks a blossom already visited while looking for a new blossom's base.
const CRUMB: u8 = 4;

/// An edge as an ordered pair of vertices.
type Edge = (usize, usize);
const NO_EDGE: Edge = (NONE, NONE);

/// A maximum-weight matching of `n` vertices that can be updated and re-solved.
///
/// Blossoms are numbered `n..2n`; vertex `v` is also the trivial blossom `v`.
pub struct Matcher<const L: usize> {
    n: usize,
    /// Doubled edge weights, row-major.
    w: Vec<Weight<L>>,
    mate: Vec<usize>,
    /// Vertex duals (doubled) for `0..n`, blossom duals for `n..2n`.
    dual: Vec<Weight<L>>,
    parent: Vec<usize>,
    childs: Vec<Vec<usize>>,
    /// `endps[b][i]` joins a vertex of `childs[b][i]` to one of `childs[b][i + 1]`.
    endps: Vec<Vec<Edge>>,
    base: Vec<usize>,
    inblossom: Vec<usize>,
    unused: Vec<usize>,
    /// Vertices whose edges changed since the last solve; their duals are recomputed.
    dirty: Vec<usize>,
    is_dirty: Vec<bool>,
    /// The mate a vertex lost when it or its mate was last prepared.
    old_mate: Vec<usize>,
    /// For each vertex of a pair fixed by `fix_pair`, its partner (else NONE): their
    /// only edge is to each other, so scans skip them.
    fixed: Vec<usize>,
    // Per-stage state.
    label: Vec<u8>,
    /// (vertex outside, vertex inside) of the edge that gave the label.
    labelend: Vec<Edge>,
    /// For an outer blossom: its least-slack edge (inside, outside) to another outer
    /// blossom. For another vertex: `.0` is its least-slack outer neighbour.
    bestedge: Vec<Edge>,
    bestslack: Vec<Weight<L>>,
    blossombestedges: Vec<Option<Vec<Edge>>>,
    queue: std::collections::VecDeque<usize>,
    /// The root vertex of the tree a labelled top-level blossom belongs to.
    tree: Vec<usize>,
    /// Tight edges found by the current scan, handled once it found no augmenting path.
    tight: Vec<usize>,
    /// Trees (by root) and free blossoms already augmented in this stage: left alone
    /// until the stage ends, so that the other trees can go on finding augmenting paths
    /// without being grown again from scratch.
    dead_root: Vec<bool>,
    dead_blossom: Vec<bool>,
    /// The vertices of each blossom (a vertex's own list is itself).
    leafs: Vec<Vec<usize>>,
    /// Scratch for `add_blossom`: least-slack edge to each other outer blossom.
    bestto: Vec<Edge>,
    besttoslack: Vec<Weight<L>>,
}

enum Event {
    Flip(usize),
    Edge(usize, usize),
    Expand(usize),
}

impl<const L: usize> Matcher<L> {
    pub fn new(n: usize) -> Self {
        Matcher {
            n,
            w: vec![Weight::ZERO; n * n],
            mate: vec![NONE; n],
            dual: vec![Weight::ZERO; 2 * n],
            parent: vec![NONE; 2 * n],
            childs: vec![Vec::new(); 2 * n],
            endps: vec![Vec::new(); 2 * n],
            base: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            inblossom: (0..n).collect(),
            unused: (n..2 * n).rev().collect(),
            dirty: Vec::new(),
            is_dirty: vec![false; n],
            old_mate: vec![NONE; n],
            fixed: vec![NONE; n],
            label: vec![FREE; 2 * n],
            labelend: vec![NO_EDGE; 2 * n],
            bestedge: vec![NO_EDGE; 2 * n],
            bestslack: vec![Weight::ZERO; 2 * n],
            blossombestedges: vec![None; 2 * n],
            queue: std::collections::VecDeque::new(),
            tree: vec![NONE; 2 * n],
            tight: Vec::new(),
            dead_root: vec![false; n],
            dead_blossom: vec![false; 2 * n],
            leafs: (0..2 * n)
                .map(|b| if b < n { vec![b] } else { Vec::new() })
                .collect(),
            bestto: vec![NO_EDGE; 2 * n],
            besttoslack: vec![Weight::ZERO; 2 * n],
        }
    }

    /// Sets the weight of edge `{v, u}`, zero meaning no edge. Only `v`'s side of the
    /// current solution is disturbed, so when several edges of a vertex change, passing
    /// that vertex as `v` keeps the repair small.
    pub fn set_weight(&mut self, v: usize, u: usize, weight: Weight<L>) {
        debug_assert!(v != u);
        let doubled = weight.shl(1);
        if self.w[v * self.n + u] == doubled {
            return;
        }
        self.prepare(v);
        self.unfix(v);
        self.unfix(u);
        self.w[v * self.n + u] = doubled;
        self.w[u * self.n + v] = doubled;
    }

    /// Makes `{a, b}` a pair with edge weight `weight` and no other edges, matched to each
    /// other. Unlike setting the weights one by one, this leaves the rest of the solution
    /// optimal: the pair's duals are chosen so that their edge is tight.
    pub fn fix_pair(&mut self, a: usize, b: usize, weight: Weight<L>) {
        let n = self.n;
        self.prepare(a);
        self.prepare(b);
        for x in 0..n {
            self.w[a * n + x] = Weight::ZERO;
            self.w[x * n + a] = Weight::ZERO;
            self.w[b * n + x] = Weight::ZERO;
            self.w[x * n + b] = Weight::ZERO;
        }
        let doubled = weight.shl(1);
        self.w[a * n + b] = doubled;
        self.w[b * n + a] = doubled;
        self.mate[a] = b;
        self.mate[b] = a;
        self.dual[a] = doubled;
        self.dual[b] = Weight::ZERO;
        self.is_dirty[a] = false;
        self.is_dirty[b] = false;
        self.unfix(a);
        self.unfix(b);
        self.fixed[a] = b;
        self.fixed[b] = a;
    }

    /// Ends the fixed pair `v` belongs to, if any (its edges are about to change).
    fn unfix(&mut self, v: usize) {
        let p = self.fixed[v];
        if p != NONE {
            self.fixed[p] = NONE;
            self.fixed[v] = NONE;
        }
    }

    /// The vertex matched to `v`, if any (valid after [`Matcher::solve`]).
    pub fn mate(&self, v: usize) -> Option<usize> {
        let m = self.mate[v];
        (m != NONE).then_some(m)
    }

    #[inline]
    fn wt(&self, u: usize, v: usize) -> &Weight<L> {
        &self.w[u * self.n + v]
    }

    #[inline]
    fn slack(&self, u: usize, v: usize) -> Weight<L> {
        self.dual[u]
            .wrapping_add(&self.dual[v])
            .wrapping_sub(self.wt(u, v))
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        self.leafs[b].clone()
    }

    /// Detaches vertex `v` from the solution before its edges change: it is unmatched
    /// (and so is its mate), and every blossom around it is dissolved, each blossom's dual
    /// handed to its vertices so that no edge's slack turns negative.
    fn prepare(&mut self, v: usize) {
        let b = self.inblossom[v];
        let bb = self.base[b];
        let m = self.mate[bb];
        if m != NONE {
            self.mate[m] = NONE;
            self.mate[bb] = NONE;
            if bb == v {
                self.old_mate[v] = m;
                self.old_mate[m] = v;
            }
        }
        if b >= self.n {
            self.augment_blossom(b, v);
            self.mate[v] = NONE;
        }
        while self.inblossom[v] != v {
            let b = self.inblossom[v];
            let z = self.dual[b];
            for x in self.leaves_of(b) {
                self.dual[x] = self.dual[x].wrapping_add(&z);
            }
            self.dual[b] = Weight::ZERO;
            self.dissolve(b);
        }
        if !self.is_dirty[v] {
            self.is_dirty[v] = true;
            self.dirty.push(v);
        }
    }

    /// True if `u` is free (the base of a free top-level blossom) and its edge to `v`
    /// is tight.
    fn is_free_tight(&self, v: usize, u: usize) -> bool {
        let bu = self.inblossom[u];
        let w = self.wt(v, u);
        !w.is_zero()
            && bu != self.inblossom[v]
            && self.base[bu] == u
            && self.mate[u] == NONE
            && self.dual[v].wrapping_add(&self.dual[u]) == *w
    }

    /// Makes the children of top-level blossom `b` top-level and frees `b`'s number.
    fn dissolve(&mut self, b: usize) {
        let childs = std::mem::take(&mut self.childs[b]);
        for &s in &childs {
            self.parent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else {
                for x in self.leaves_of(s) {
                    self.inblossom[x] = s;
                }
            }
        }
        self.endps[b].clear();
        self.leafs[b].clear();
        self.base[b] = NONE;
        self.unused.push(b);
    }

    /// Makes the dual of every free top-level blossom even, as a stage needs all its
    /// roots to share a parity (half an outer-outer slack must be whole).
    fn fix_parity(&mut self, mut b: usize) {
        loop {
            if b < self.n {
                self.dual[b] = self.dual[b].add_u64(1);
                return;
            }
            if !self.dual[b].is_zero() {
                self.dual[b] = self.dual[b].sub_u64(1);
                for x in self.leaves_of(b) {
                    self.dual[x] = self.dual[x].add_u64(1);
                }
                return;
            }
            let base = self.base[b];
            self.dissolve(b);
            b = self.inblossom[base];
        }
    }

    /// Re-solves after updates; afterwards the matching has maximum weight.
    pub fn solve(&mut self) {
        let n = self.n;
        let dirty: Vec<usize> = std::mem::take(&mut self.dirty)
            .into_iter()
            .filter(|&v| self.is_dirty[v])
            .collect();
        // New duals for the changed vertices, one after the other: each the least that
        // keeps its edges feasible given the others' current duals.
        for &v in &dirty {
            let mut y = Weight::ZERO;
            for u in 0..n {
                if self.fixed[u] != NONE {
                    continue;
                }
                let w = self.wt(v, u);
                if u == v || w.is_zero() {
                    continue;
                }
                if *w > self.dual[u] {
                    let need = w.wrapping_sub(&self.dual[u]);
                    if need > y {
                        y = need;
                    }
                }
            }
            self.dual[v] = y;
        }
        for &v in &dirty {
            self.is_dirty[v] = false;
        }
        // Warm start: match a changed vertex at once to a free neighbour over a tight
        // edge (its old mate first, as it usually still fits best).
        for &v in &dirty {
            if self.mate[v] != NONE {
                continue;
            }
            let mut pick = NONE;
            let old = self.old_mate[v];
            if old != NONE && self.is_free_tight(v, old) {
                pick = old;
            } else {
                for u in 0..n {
                    if u != v && self.fixed[u] == NONE && self.is_free_tight(v, u) {
                        pick = u;
                        break;
                    }
                }
            }
            if pick != NONE {
                let bu = self.inblossom[pick];
                if bu >= n {
                    self.augment_blossom(bu, pick);
                }
                self.mate[v] = pick;
                self.mate[pick] = v;
            }
        }
        for b in 0..2 * n {
            if b < n && self.parent[b] != NONE {
                continue;
            }
            if b >= n && (self.base[b] == NONE || self.parent[b] != NONE) {
                continue;
            }
            let base = self.base[b];
            if self.mate[base] == NONE && self.dual[base].is_odd() {
                self.fix_parity(b);
            }
        }
        while self.stage() {}
    }

    fn assign_label(&mut self, w: usize, t: u8, le: Edge) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = le;
        self.labelend[b] = le;
        self.bestedge[w] = NO_EDGE;
        self.bestedge[b] = NO_EDGE;
        self.tree[b] = if le == NO_EDGE {
            w
        } else {
            self.tree[self.inblossom[le.0]]
        };
        if t == OUTER {
            self.queue.extend(self.leafs[b].iter().copied());
        } else {
            let base = self.base[b];
            let m = self.mate[base];
            debug_assert!(m != NONE);
            self.assign_label(m, OUTER, (base, m));
        }
    }

    /// Traces back from outer vertices `v` and `w`; returns the base of the new blossom
    /// if both lead to the same root, or NONE if they reach different roots.
    fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        let (mut v, mut w) = (v, w);
        while v != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & CRUMB != 0 {
                base = self.base[b];
                break;
            }
            path.push(b);
            self.label[b] = OUTER | CRUMB;
            if self.labelend[b] == NO_EDGE {
                v = NONE;
            } else {
                v = self.labelend[b].0;
                b = self.inblossom[v];
                v = self.labelend[b].0;
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = OUTER;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, v0: usize, w0: usize) {
        let n = self.n;
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v0];
        let mut bw = self.inblossom[w0];
        let b = self.unused.pop().expect("blossom numbers");
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            let v = self.labelend[bv].0;
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push((v0, w0));
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            let (o, i) = self.labelend[bw];
            endps.push((i, o));
            let w = self.labelend[bw].0;
            bw = self.inblossom[w];
        }
        self.label[b] = OUTER;
        self.labelend[b] = self.labelend[bb];
        self.tree[b] = self.tree[bb];
        self.dual[b] = Weight::ZERO;
        let mut leafs = std::mem::take(&mut self.leafs[b]);
        leafs.clear();
        for &sub in &path {
            leafs.extend_from_slice(&self.leafs[sub]);
        }
        for &v in &leafs {
            if self.label[self.inblossom[v]] == INNER {
                self.queue.push_back(v);
            }
            self.inblossom[v] = b;
        }
        self.leafs[b] = leafs;
        // The least-slack edges from the new blossom to every other outer blossom.
        let mut touched = Vec::new();
        for &sub in &path {
            match self.blossombestedges[sub].take() {
                Some(list) => {
                    for (i, j) in list {
                        self.note_bestto(b, i, j, &mut touched);
                    }
                }
                None => {
                    for k in 0..self.leafs[sub].len() {
                        let v = self.leafs[sub][k];
                        for u in 0..n {
                            // Only edges to other outer blossoms matter here.
                            let bu = self.inblossom[u];
                            if bu != b && self.label[bu] == OUTER && !self.wt(v, u).is_zero() {
                                self.note_bestto(b, v, u, &mut touched);
                            }
                        }
                    }
                }
            }
            self.bestedge[sub] = NO_EDGE;
        }
        let mut list = Vec::with_capacity(touched.len());
        self.bestedge[b] = NO_EDGE;
        for bj in touched {
            let e = self.bestto[bj];
            self.bestto[bj] = NO_EDGE;
            list.push(e);
            if self.bestedge[b] == NO_EDGE || self.besttoslack[bj] < self.bestslack[b] {
                self.bestedge[b] = e;
                self.bestslack[b] = self.besttoslack[bj];
            }
        }
        self.blossombestedges[b] = Some(list);
        self.childs[b] = path;
        self.endps[b] = endps;
    }

    /// Records edge `{i, j}` (one end in new blossom `b`) if it is the least-slack one so
    /// far from `b` to the other end's outer blossom.
    fn note_bestto(&mut self, b: usize, i: usize, j: usize, touched: &mut Vec<usize>) {
        let (i, j) = if self.inblossom[j] == b {
            (j, i)
        } else {
            (i, j)
        };
        let bj = self.inblossom[j];
        if bj == b || self.label[bj] != OUTER {
            return;
        }
        let s = self.slack(i, j);
        if self.bestto[bj] == NO_EDGE {
            touched.push(bj);
        } else if s >= self.besttoslack[bj] {
            return;
        }
        self.bestto[bj] = (i, j);
        self.besttoslack[bj] = s;
    }

    /// The edge leaving child `j` of `b` towards child `j + step`, as (in child j, in the
    /// other child).
    fn step_edge(&self, b: usize, j: isize, step: isize) -> Edge {
        let len = self.childs[b].len() as isize;
        if step > 0 {
            self.endps[b][j.rem_euclid(len) as usize]
        } else {
            let (x, y) = self.endps[b][(j - 1).rem_euclid(len) as usize];
            (y, x)
        }
    }

    fn child(&self, b: usize, j: isize) -> usize {
        let len = self.childs[b].len() as isize;
        self.childs[b][j.rem_euclid(len) as usize]
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let n = self.n;
        let childs = self.childs[b].clone();
        for &s in &childs {
            self.parent[s] = NONE;
            if s < n {
                self.inblossom[s] = s;
            } else if endstage && self.dual[s].is_zero() {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == INNER {
            // Relabel the children from the one the label came through to the base.
            let entrychild = self.inblossom[self.labelend[b].1];
            let len = childs.len() as isize;
            let mut j = childs.iter().position(|&c| c == entrychild).unwrap() as isize;
            let jstep: isize = if j & 1 == 1 {
                j -= len;
                1
            } else {
                -1
            };
            let (mut p_out, mut p_in) = self.labelend[b];
            while j != 0 {
                self.label[p_in] = FREE;
                let (_, c) = self.step_edge(b, j, jstep);
                self.label[c] = FREE;
                self.assign_label(p_in, INNER, (p_out, p_in));
                j += jstep;
                let (a, c) = self.step_edge(b, j, jstep);
                p_out = a;
                p_in = c;
                j += jstep;
            }
            let bv = self.child(b, j);
            self.label[p_in] = INNER;
            self.label[bv] = INNER;
            self.labelend[p_in] = (p_out, p_in);
            self.labelend[bv] = (p_out, p_in);
            self.tree[bv] = self.tree[b];
            self.bestedge[bv] = NO_EDGE;
            j += jstep;
            while self.child(b, j) != entrychild {
                let bv = self.child(b, j);
                if self.label[bv] == OUTER {
                    j += jstep;
                    continue;
                }
                let mut found = NONE;
                for v in self.leaves_of(bv) {
                    if self.label[v] != FREE {
                        found = v;
                        break;
                    }
                }
                if found != NONE {
                    debug_assert!(self.label[found] == INNER);
                    self.label[found] = FREE;
                    let m = self.mate[self.base[bv]];
                    self.label[m] = FREE;
                    let le = self.labelend[found];
                    self.assign_label(found, INNER, le);
                }
                j += jstep;
            }
        }
        self.label[b] = FREE;
        self.labelend[b] = NO_EDGE;
        self.childs[b].clear();
        self.endps[b].clear();
        self.leafs[b].clear();
        self.base[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NO_EDGE;
        self.unused.push(b);
    }

    /// Rematches the inside of blossom `b` so that vertex `v` becomes its base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.childs[b].len() as isize;
        let i = self.childs[b].iter().position(|&c| c == t).unwrap();
        let mut j = i as isize;
        let jstep: isize = if j & 1 == 1 {
            j -= len;
            1
        } else {
            -1
        };
        while j != 0 {
            j += jstep;
            let t = self.child(b, j);
            let (a, c) = self.step_edge(b, j, jstep);
            if t >= self.n {
                self.augment_blossom(t, a);
            }
            j += jstep;
            let t = self.child(b, j);
            if t >= self.n {
                self.augment_blossom(t, c);
            }
            self.mate[a] = c;
            self.mate[c] = a;
        }
        self.childs[b].rotate_left(i);
        self.endps[b].rotate_left(i);
        self.base[b] = self.base[self.childs[b][0]];
        debug_assert!(self.base[b] == v);
    }

    /// Matches outer vertex `s` to `partner` (or leaves it free) and flips the tree path
    /// from `s` back to its root.
    fn augment_from(&mut self, mut s: usize, mut partner: usize) {
        loop {
            let bs = self.inblossom[s];
            if bs >= self.n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = partner;
            let le = self.labelend[bs];
            if le == NO_EDGE {
                break;
            }
            let t = le.0;
            let bt = self.inblossom[t];
            let (s2, j) = self.labelend[bt];
            if bt >= self.n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = s2;
            s = s2;
            partner = j;
        }
    }

    #[inline]
    fn is_dead(&self, b: usize) -> bool {
        self.dead_blossom[b] || (self.label[b] != FREE && self.dead_root[self.tree[b]])
    }

    /// Scans the edges of outer vertex `v`: non-tight ones update the least-slack
    /// records, tight ones are handled afterwards, an augmenting one first (no point in
    /// growing a tree that can already augment). True if it augmented.
    fn scan(&mut self, v: usize) -> bool {
        let n = self.n;
        let mut tight = std::mem::take(&mut self.tight);
        tight.clear();
        let bv = self.inblossom[v];
        let dv = self.dual[v];
        let row = v * n;
        let mut found = NONE;
        if self.is_dead(bv) {
            return false;
        }
        for w in 0..n {
            if self.fixed[w] != NONE {
                continue;
            }
            let bw = self.inblossom[w];
            if bw == bv || self.is_dead(bw) {
                continue;
            }
            let weight = &self.w[row + w];
            if weight.is_zero() {
                continue;
            }
            let sum = dv.wrapping_add(&self.dual[w]);
            debug_assert!(sum >= *weight, "negative slack");
            if sum <= *weight {
                let lw = self.label[bw];
                if (lw == FREE && self.mate[self.base[bw]] == NONE)
                    || (lw == OUTER && self.tree[bw] != self.tree[bv])
                {
                    found = w;
                    break;
                }
                tight.push(w);
            } else {
                let slack = sum.wrapping_sub(weight);
                if self.label[bw] == OUTER {
                    if self.bestedge[bv] == NO_EDGE || slack < self.bestslack[bv] {
                        self.bestedge[bv] = (v, w);
                        self.bestslack[bv] = slack;
                    }
                } else if self.label[w] == FREE
                    && (self.bestedge[w] == NO_EDGE || slack < self.bestslack[w])
                {
                    self.bestedge[w] = (v, w);
                    self.bestslack[w] = slack;
                }
            }
        }
        let mut done = false;
        if found != NONE {
            done = self.consider(v, found);
            debug_assert!(done);
        } else {
            for &w in &tight {
                if self.consider(v, w) {
                    done = true;
                    break;
                }
            }
        }
        self.tight = tight;
        done
    }

    /// Handles an edge from outer vertex `v` to `w` that may be tight; true if it
    /// completed an augmentation.
    fn consider(&mut self, v: usize, w: usize) -> bool {
        let bv = self.inblossom[v];
        let bw = self.inblossom[w];
        if bv == bw || self.is_dead(bv) || self.is_dead(bw) {
            return false;
        }
        let weight = self.wt(v, w);
        if weight.is_zero() {
            return false;
        }
        let sum = self.dual[v].wrapping_add(&self.dual[w]);
        debug_assert!(sum >= *weight, "negative slack");
        if sum <= *weight {
            if self.label[bw] == FREE {
                if self.mate[self.base[bw]] == NONE {
                    // A free vertex whose dual is zero ends an augmenting path.
                    self.dead_root[self.tree[bv]] = true;
                    self.dead_blossom[bw] = true;
                    self.augment_from(v, w);
                    if bw >= self.n {
                        self.augment_blossom(bw, w);
                    }
                    self.mate[w] = v;
                    return true;
                }
                self.assign_label(w, INNER, (v, w));
            } else if self.label[bw] == OUTER {
                let base = self.scan_blossom(v, w);
                if base != NONE {
                    self.add_blossom(base, v, w);
                } else {
                    self.dead_root[self.tree[bv]] = true;
                    self.dead_root[self.tree[bw]] = true;
                    self.augment_from(v, w);
                    self.augment_from(w, v);
                    return true;
                }
            } else if self.label[w] == FREE {
                self.label[w] = INNER;
                self.labelend[w] = (v, w);
            }
        } else {
            let slack = sum.wrapping_sub(weight);
            if self.label[bw] == OUTER {
                if self.bestedge[bv] == NO_EDGE || slack < self.bestslack[bv] {
                    self.bestedge[bv] = (v, w);
                    self.bestslack[bv] = slack;
                }
            } else if self.label[w] == FREE
                && (self.bestedge[w] == NO_EDGE || slack < self.bestslack[w])
            {
                self.bestedge[w] = (v, w);
                self.bestslack[w] = slack;
            }
        }
        false
    }

    /// One stage: grows trees from the free vertices with positive dual, changing duals
    /// when no tight edge is left, until an augmentation (or a flip) happens; after a
    /// first augmentation it only finishes scanning the queued vertices, which may find
    /// more augmenting paths that avoid the trees already used, and changes no dual.
    /// False when there was no such free vertex.
    fn stage(&mut self) -> bool {
        let n = self.n;
        for x in self.label.iter_mut() {
            *x = FREE;
        }
        for e in self.bestedge.iter_mut() {
            *e = NO_EDGE;
        }
        for l in self.blossombestedges[n..].iter_mut() {
            *l = None;
        }
        for e in self.labelend.iter_mut() {
            *e = NO_EDGE;
        }
        self.queue.clear();
        let mut any = false;
        for v in 0..n {
            if self.mate[v] == NONE
                && self.label[self.inblossom[v]] == FREE
                && !self.dual[v].is_zero()
            {
                self.assign_label(v, OUTER, NO_EDGE);
                any = true;
            }
        }
        if !any {
            return false;
        }
        for d in self.dead_root.iter_mut() {
            *d = false;
        }
        for d in self.dead_blossom.iter_mut() {
            *d = false;
        }
        let mut augmented = false;
        loop {
            while let Some(v) = self.queue.pop_front() {
                augmented |= self.scan(v);
            }
            if augmented {
                // No dual change after an augmentation: the next stage starts afresh.
                self.end_stage();
                return true;
            }
            // Choose the dual change.
            let mut delta = Weight::ZERO;
            let mut event = Event::Flip(NONE);
            let mut have = false;
            for v in 0..n {
                if self.label[self.inblossom[v]] == OUTER && (!have || self.dual[v] < delta) {
                    delta = self.dual[v];
                    event = Event::Flip(v);
                    have = true;
                }
            }
            for v in 0..n {
                if self.label[self.inblossom[v]] == FREE
                    && self.bestedge[v] != NO_EDGE
                    && self.bestslack[v] < delta
                {
                    delta = self.bestslack[v];
                    event = Event::Edge(self.bestedge[v].0, v);
                }
            }
            for b in 0..2 * n {
                if self.parent[b] == NONE
                    && (b < n || self.base[b] != NONE)
                    && self.label[b] == OUTER
                    && self.bestedge[b] != NO_EDGE
                {
                    let d = self.bestslack[b].shr1();
                    if d < delta {
                        delta = d;
                        let (x, y) = self.bestedge[b];
                        event = Event::Edge(x, y);
                    }
                }
            }
            for b in n..2 * n {
                if self.base[b] != NONE
                    && self.parent[b] == NONE
                    && self.label[b] == INNER
                    && self.dual[b] < delta
                {
                    delta = self.dual[b];
                    event = Event::Expand(b);
                }
            }
            if !delta.is_zero() {
                let twice = delta.shl(1);
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        OUTER => self.dual[v] = self.dual[v].wrapping_sub(&delta),
                        INNER => self.dual[v] = self.dual[v].wrapping_add(&delta),
                        _ => {
                            if self.bestedge[v] != NO_EDGE {
                                self.bestslack[v] = self.bestslack[v].wrapping_sub(&delta);
                            }
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.parent[b] != NONE || (b >= n && self.base[b] == NONE) {
                        continue;
                    }
                    match self.label[b] {
                        OUTER => {
                            if b >= n {
                                self.dual[b] = self.dual[b].wrapping_add(&delta);
                            }
                            if self.bestedge[b] != NO_EDGE {
                                self.bestslack[b] = self.bestslack[b].wrapping_sub(&twice);
                            }
                        }
                        INNER if b >= n => {
                            self.dual[b] = self.dual[b].wrapping_sub(&delta);
                        }
                        _ => {}
                    }
                }
            }
            match event {
                Event::Flip(x) => {
                    self.augment_from(x, NONE);
                    self.end_stage();
                    return true;
                }
                Event::Edge(x, y) => {
                    augmented |= self.consider(x, y);
                }
                Event::Expand(b) => self.expand_blossom(b, false),
            }
        }
    }

    /// Outer blossoms whose dual reached zero are expanded so that a later stage can
    /// label their parts separately.
    fn end_stage(&mut self) {
        let n = self.n;
        for b in n..2 * n {
            if self.parent[b] == NONE
                && self.base[b] != NONE
                && self.label[b] == OUTER
                && self.dual[b].is_zero()
            {
                self.expand_blossom(b, true);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exhaustive maximum over all matchings of a small graph.
    fn brute(n: usize, w: &[u64]) -> u64 {
        fn rec(n: usize, w: &[u64], used: &mut Vec<bool>, i: usize) -> u64 {
            if i == n {
                return 0;
            }
            if used[i] {
                return rec(n, w, used, i + 1);
            }
            used[i] = true;
            let mut best = rec(n, w, used, i + 1);
            for j in i + 1..n {
                if !used[j] && w[i * n + j] > 0 {
                    used[j] = true;
                    best = best.max(w[i * n + j] + rec(n, w, used, i + 1));
                    used[j] = false;
                }
            }
            used[i] = false;
            best
        }
        rec(n, w, &mut vec![false; n], 0)
    }

    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 33
        }
    }

    fn total(m: &Matcher<2>, n: usize, w: &[u64]) -> u64 {
        let mut t = 0;
        for v in 0..n {
            if let Some(u) = m.mate(v) {
                assert_eq!(m.mate(u), Some(v));
                assert!(w[v * n + u] > 0);
                if v < u {
                    t += w[v * n + u];
                }
            }
        }
        t
    }

    #[test]
    fn random_graphs_with_updates() {
        let mut rng = Lcg(7);
        for case in 0..3000 {
            let n = 1 + (rng.next() % 11) as usize;
            let maxw = [3, 10, 1000][case % 3];
            let mut w = vec![0u64; n * n];
            let mut m = Matcher::<2>::new(n);
            for i in 0..n {
                for j in i + 1..n {
                    if rng.next() % 4 != 0 {
                        let x = rng.next() % maxw;
                        w[i * n + j] = x;
                        w[j * n + i] = x;
                        m.set_weight(i, j, Weight::from_u64(x));
                    }
                }
            }
            m.solve();
            assert_eq!(total(&m, n, &w), brute(n, &w), "case {case}");
            for round in 0..6 {
                if n >= 2 && round % 3 == 2 {
                    // Fix a pair for good, as the pairing code does with decided pairs.
                    let a = (rng.next() % n as u64) as usize;
                    let b = (a + 1 + (rng.next() % (n as u64 - 1)) as usize) % n;
                    let big = 1 << 40;
                    for x in 0..n {
                        for (p, q) in [(a, x), (x, a), (b, x), (x, b)] {
                            w[p * n + q] = 0;
                        }
                    }
                    w[a * n + b] = big;
                    w[b * n + a] = big;
                    m.fix_pair(a, b, Weight::from_u64(big));
                    m.solve();
                    assert_eq!(total(&m, n, &w), brute(n, &w), "case {case} fixed pair");
                }
                let k = 1 + (rng.next() % 3) as usize;
                for _ in 0..k {
                    let v = (rng.next() % n as u64) as usize;
                    for u in 0..n {
                        if u != v && rng.next() % 2 == 0 {
                            let x = if rng.next() % 5 == 0 {
                                0
                            } else {
                                rng.next() % maxw
                            };
                            w[v * n + u] = x;
                            w[u * n + v] = x;
                            m.set_weight(v, u, Weight::from_u64(x));
                        }
                    }
                }
                m.solve();
                assert_eq!(total(&m, n, &w), brute(n, &w), "case {case} update");
            }
        }
    }
}
