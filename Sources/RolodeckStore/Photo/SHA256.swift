import CSystem

/// SHA-256 (FIPS 180-4), for naming photos by their bytes.
///
/// Written here because the toolchain on Linux has no hash of this kind without a package from
/// outside it. A photo is hashed once, when its file or card is decoded (the decode cache keeps
/// the result), but every build decodes every photo.
enum SHA256 {
    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

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
