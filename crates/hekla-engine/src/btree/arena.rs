//! Memory for B+tree nodes: carved from blocks that double in size up to a
//! huge page, so a small index costs little and a large one's nodes sit on
//! 2 MiB pages (fewer TLB misses per descent). Nodes are never freed one by
//! one; the blocks go when the tree is dropped.

use super::node::{Node, NODE_BYTES};
use crate::memory::{Block, HUGE_PAGE};
use std::sync::Mutex;

const FIRST_BLOCK: usize = 16 * NODE_BYTES;

#[derive(Default)]
pub struct Arena {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    blocks: Vec<Block>,
    /// Nodes handed out from the last block.
    used_in_last: usize,
    allocated_bytes: u64,
}

impl Arena {
    /// A fresh, empty node. Splits are rare (one per ~50 inserts), so a
    /// mutex costs nothing measurable here.
    pub fn allocate(&self, leaf: bool) -> &Node {
        let mut state = self.state.lock().expect("arena");
        let full = state
            .blocks
            .last()
            .is_none_or(|block| (state.used_in_last + 1) * NODE_BYTES > block.size());
        if full {
            let size = state
                .blocks
                .last()
                .map_or(FIRST_BLOCK, |block| (block.size() * 2).min(HUGE_PAGE));
            state.blocks.push(Block::zeroed(size, NODE_BYTES));
            state.used_in_last = 0;
            state.allocated_bytes += size as u64;
        }
        let block = state.blocks.last().expect("a block");
        // SAFETY: the node lies inside the block (checked above), is aligned
        // (the block is NODE_BYTES-aligned and nodes are NODE_BYTES apart),
        // and is zeroed memory handed out once; a zeroed Node is valid
        // (all atomics). The block lives as long as the arena, which
        // outlives every reference it hands out.
        let node =
            unsafe { &*(block.as_ptr().add(state.used_in_last * NODE_BYTES) as *const Node) };
        state.used_in_last += 1;
        node.init(leaf);
        node
    }

    pub fn allocated_bytes(&self) -> u64 {
        self.state.lock().expect("arena").allocated_bytes
    }
}
