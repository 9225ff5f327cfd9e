//! Blocks: the unit every durability file is made of.
//!
//! ```text
//! [magic u32][payload length u32][position u64][crc32c u32][reserved u32] payload, zero-padded to 8 bytes
//! ```
//! `position` is where the block sits (a log sequence number, or an offset
//! in a checkpoint file), so stale bytes left in a reused or preallocated
//! file can never pass for a block. The checksum covers the length, the
//! position and the payload. An all-zero header is "nothing written here".

pub const HEADER_BYTES: usize = 24;
const MAGIC: u32 = 0x424c_4b48; // "HKLB"
/// Blocks are padded to this, so headers are always aligned.
pub const ALIGN: usize = 8;
/// The largest payload a block may carry; a longer length field is corrupt.
pub const MAX_PAYLOAD_BYTES: usize = 256 << 20;

/// A buffer whose first `HEADER_BYTES` are reserved for the header that
/// [`seal`] fills in; callers append the payload after them.
pub fn new_block(capacity: usize) -> Vec<u8> {
    let mut block = Vec::with_capacity(HEADER_BYTES + capacity);
    block.resize(HEADER_BYTES, 0);
    block
}

/// Fills in the header of a block built with [`new_block`] and pads it.
pub fn seal(block: &mut Vec<u8>, position: u64) {
    let len = block.len() - HEADER_BYTES;
    assert!(len <= MAX_PAYLOAD_BYTES, "block payload of {len} bytes");
    block[0..4].copy_from_slice(&MAGIC.to_le_bytes());
    block[4..8].copy_from_slice(&(len as u32).to_le_bytes());
    block[8..16].copy_from_slice(&position.to_le_bytes());
    let crc = checksum(&block[4..16], &block[HEADER_BYTES..]);
    block[16..20].copy_from_slice(&crc.to_le_bytes());
    block[20..24].fill(0);
    block.resize(block.len().next_multiple_of(ALIGN), 0);
}

fn checksum(header: &[u8], payload: &[u8]) -> u32 {
    crc32c::crc32c_append(crc32c::crc32c(header), payload)
}

/// Bytes a block with `payload_len` payload bytes takes on disk.
pub fn block_len(payload_len: usize) -> usize {
    (HEADER_BYTES + payload_len).next_multiple_of(ALIGN)
}

/// The length on disk of the block whose header is `header`, as its length
/// field claims (capped at the largest valid block), so that a reader can
/// fetch a whole block after its header. Nothing is checked: [`read`]
/// judges the block once it is in hand.
pub fn claimed_block_len(header: &[u8; HEADER_BYTES]) -> usize {
    let payload = u32::from_le_bytes(header[4..8].try_into().expect("4 bytes")) as usize;
    block_len(payload.min(MAX_PAYLOAD_BYTES))
}

#[derive(Debug, PartialEq, Eq)]
pub enum Read<'a> {
    /// A valid block and the offset just past it.
    Block { payload: &'a [u8], next: usize },
    /// Zeros, or the end of the input: nothing was written here.
    End,
    /// Something was written here, but it is not a valid block.
    Bad(String),
}

/// Reads the block at `at` in `input`, which must sit at `position`.
pub fn read(input: &[u8], at: usize, position: u64) -> Read<'_> {
    let Some(header) = input.get(at..at + HEADER_BYTES) else {
        return if input[at.min(input.len())..].iter().all(|&b| b == 0) {
            Read::End
        } else {
            Read::Bad("a block header is cut short".into())
        };
    };
    if header.iter().all(|&b| b == 0) {
        return Read::End;
    }
    let word =
        |range: std::ops::Range<usize>| u32::from_le_bytes(header[range].try_into().unwrap());
    if word(0..4) != MAGIC {
        return Read::Bad("no block starts here".into());
    }
    // Not covered by the checksum, so it must hold its one valid value.
    if word(20..24) != 0 {
        return Read::Bad("the reserved header word is not zero".into());
    }
    let len = word(4..8) as usize;
    let found_position = u64::from_le_bytes(header[8..16].try_into().unwrap());
    if found_position != position {
        return Read::Bad(format!(
            "the block here claims position {found_position}, expected {position}"
        ));
    }
    if len > MAX_PAYLOAD_BYTES || at + block_len(len) > input.len() {
        return Read::Bad(format!("a block of {len} bytes runs past the end"));
    }
    let payload = &input[at + HEADER_BYTES..at + HEADER_BYTES + len];
    if checksum(&header[4..16], payload) != word(16..20) {
        return Read::Bad("checksum mismatch".into());
    }
    Read::Block {
        payload,
        next: at + block_len(len),
    }
}

/// Whether a valid block (for its own position) starts anywhere in
/// `input` at or after `from`, with `input` starting at `base`. Used to tell
/// a torn tail (nothing valid follows) from damage in the middle.
pub fn any_block_after(input: &[u8], from: usize, base: u64) -> bool {
    let mut at = from.next_multiple_of(ALIGN);
    while at + HEADER_BYTES <= input.len() {
        if input[at..at + 4] == MAGIC.to_le_bytes()
            && matches!(read(input, at, base + at as u64), Read::Block { .. })
        {
            return true;
        }
        at += ALIGN;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(position: u64, payload: &[u8]) -> Vec<u8> {
        let mut b = new_block(payload.len());
        b.extend_from_slice(payload);
        seal(&mut b, position);
        b
    }

    #[test]
    fn blocks_round_trip_and_pad() {
        let mut file = block(0, b"hello");
        assert_eq!(file.len(), 32);
        file.extend(block(32, b""));
        file.extend([0u8; 40]);
        assert_eq!(
            read(&file, 0, 0),
            Read::Block {
                payload: b"hello",
                next: 32
            }
        );
        assert_eq!(
            read(&file, 32, 32),
            Read::Block {
                payload: b"",
                next: 56
            }
        );
        assert_eq!(read(&file, 56, 56), Read::End);
        assert_eq!(read(&file, file.len(), 0), Read::End);
    }

    #[test]
    fn every_single_bit_flip_is_detected() {
        let good = block(4096, b"some payload bytes");
        for bit in 0..good.len() * 8 {
            let mut bad = good.clone();
            bad[bit / 8] ^= 1 << (bit % 8);
            let outcome = read(&bad, 0, 4096);
            // Padding bytes are not covered; everything else must be.
            if bit / 8 < HEADER_BYTES + 18 {
                assert!(
                    !matches!(outcome, Read::Block { .. }),
                    "bit {bit} flipped unnoticed"
                );
            }
        }
    }

    #[test]
    fn stale_blocks_are_rejected_by_position() {
        let b = block(100, b"x");
        assert!(matches!(read(&b, 0, 200), Read::Bad(_)));
        let mut torn = b.clone();
        torn.truncate(HEADER_BYTES + 2);
        torn[HEADER_BYTES] = 1;
        assert!(matches!(read(&torn, 0, 100), Read::Bad(_)));
        let mut input = vec![7u8; 16];
        input.extend(block(16, b"after"));
        assert!(any_block_after(&input, 0, 0));
        assert!(!any_block_after(&input, 17, 0));
    }
}
