import CSystem

/// SHA-256 (FIPS 180-4), for naming photos by their bytes.
///
/// Written here because the toolchain on Linux has no hash of this kind without a package from
/// outside it. A photo is hashed once, when its file or card is decoded (the decode cache keeps
/// the result), but every build decodes every photo.
enum SHA256 {
    /// The round constants, from the table the SHA extensions' function uses too.
    private static let roundConstants = Array(
        UnsafeBufferPointer(start: rolodeck_sha256_round_constants(), count: 64))

    /// The first 32 bits of the fractional parts of the square roots of the first 8 primes.
    private static let initialState: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]

    /// Whether the processor's SHA extensions run the compression function
    /// (`rolodeck_sha256_blocks`): about six times as fast as this file's own, which runs
    /// where they are missing.
    static let hasHardware = rolodeck_sha256_hardware() != 0

    /// The digest of `bytes` in lowercase hex, 64 characters.
    static func hex(of bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for word in digest(of: bytes) {
            for shift in stride(from: 28, through: 0, by: -4) {
                text.append(digits[Int((word >> UInt32(shift)) & 0xf)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The digest of `bytes` as eight big-endian words.
    ///
    /// Every build hashes every photo it reads (313 MB for the bench's 10,000 photos), so the
    /// blocks are compressed by the processor's SHA extensions when it has them (`hardware`),
    /// or else over one schedule made for the whole message: a schedule array made for each
    /// block was 19 % of a build's samples.
    static func digest(of bytes: [UInt8], hardware: Bool = hasHardware) -> [UInt32] {
        var state = initialState
        // The message, then 0x80, zeros up to 8 bytes short of a whole block, then its length
        // in bits; whole blocks are read from the bytes in place, the tail from a copy.
        let wholeBlocks = bytes.count / 64
        var tail = Array(bytes[(wholeBlocks * 64)...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bitCount = UInt64(bytes.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift)))
        }
        if hardware {
            state.withUnsafeMutableBufferPointer { state in
                for message in [bytes, tail] {
                    message.withUnsafeBufferPointer { buffer in
                        // An empty message has no blocks, and may have no address.
                        guard let start = buffer.baseAddress, buffer.count >= 64 else { return }
                        rolodeck_sha256_blocks(state.baseAddress!, start, buffer.count / 64)
                    }
                }
            }
            return state
        }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            roundConstants.withUnsafeBufferPointer { constants in
                state.withUnsafeMutableBufferPointer { state in
                    for message in [bytes, tail] {
                        message.withUnsafeBufferPointer { buffer in
                            let blocks = message.count / 64
                            for block in 0..<blocks {
                                compress(state, buffer.baseAddress! + block * 64, schedule, constants)
                            }
                        }
                    }
                }
            }
        }
        return state
    }

    /// Runs the compression function on the 64-byte block at `block`, with `schedule` (64
    /// words) to work in.
    @inline(__always)
    private static func compress(
        _ state: UnsafeMutableBufferPointer<UInt32>, _ block: UnsafePointer<UInt8>,
        _ schedule: UnsafeMutableBufferPointer<UInt32>, _ constants: UnsafeBufferPointer<UInt32>
    ) {
        for index in 0..<16 {
            schedule[index] =
                UInt32(block[index * 4]) << 24 | UInt32(block[index * 4 + 1]) << 16
                | UInt32(block[index * 4 + 2]) << 8 | UInt32(block[index * 4 + 3])
        }
        for index in 16..<64 {
            let before15 = schedule[index - 15], before2 = schedule[index - 2]
            let sigma0 = rotate(before15, 7) ^ rotate(before15, 18) ^ (before15 >> 3)
            let sigma1 = rotate(before2, 17) ^ rotate(before2, 19) ^ (before2 >> 10)
            schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for index in 0..<64 {
            let sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
            let choice = (e & f) ^ (~e & g)
            let temp1 = h &+ sum1 &+ choice &+ constants[index] &+ schedule[index]
            let sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temp2 = sum0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
        }
        state[0] = state[0] &+ a
        state[1] = state[1] &+ b
        state[2] = state[2] &+ c
        state[3] = state[3] &+ d
        state[4] = state[4] &+ e
        state[5] = state[5] &+ f
        state[6] = state[6] &+ g
        state[7] = state[7] &+ h
    }

    /// `value` rotated right by `count` bits.
    @inline(__always)
    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }
}
