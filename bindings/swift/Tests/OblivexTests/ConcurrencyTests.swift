import Oblivex
import Testing

@Suite("concurrency")
struct ConcurrencyTests {
    /// One server, one key share, one modulus context, one commitment set
    /// and the clients made from them, used from many tasks at once (they
    /// are `Sendable`: the compiler lets the tasks capture them); results
    /// never change. Each task makes and finalizes its own batches.
    @Test("one server and one key share from many tasks")
    func sharedHandles() async throws {
        let server = try OPRFServer.generate(suite: .ristretto255)
        let (shares, commitments) = try KeyShare.deal(suite: .ristretto255, threshold: 2, parties: 3)
        let share = shares[0]
        let context = try ModulusContext(modulus: [0x0f, 0x42, 0x43]) // 1000003
        let client = OPRFClient(suite: .ristretto255)
        let checked = try CheckedClient(suite: .ristretto255, check: .committedKey, publicKey: server.publicKey)
        let threshold = try ThresholdOPRFClient(commitments: commitments)
        let batch = try client.blind(inputs(8))
        let request = batch.request
        let want = try server.evaluate(request)
        let wantShare = try share.evaluate(request)
        let wantOutputs = try batch.finalize(want)

        let failures = await withTaskGroup(of: [String].self) { group in
            for task in 0..<16 {
                group.addTask {
                    var failures: [String] = []
                    do {
                        for i in 0..<10 {
                            if try server.evaluate(request) != want {
                                failures.append("task \(task): the server's result changed")
                            }
                            if try share.evaluate(request) != wantShare {
                                failures.append("task \(task): the share's result changed")
                            }
                            let base = UInt8(task + 2), exponent = UInt8(i)
                            let power = try context.expBatch(bases: [[base]], exponents: [[exponent]])
                            var expected = 1
                            for _ in 0..<exponent { expected = expected * Int(base) % 1_000_003 }
                            if power != [[UInt8(expected >> 16), UInt8(expected >> 8 & 0xff), UInt8(expected & 0xff)]] {
                                failures.append("task \(task): modexp result changed")
                            }
                            if i % 3 == 0 {
                                let own = try client.blind(inputs(8))
                                let evaluated = try server.evaluate(own.request)
                                if try own.finalize(evaluated) != wantOutputs {
                                    failures.append("task \(task): OPRF outputs changed")
                                }
                                let checkedBatch = try checked.blind(inputs(2))
                                let response = try server.evaluate(checkedBatch.request)
                                _ = try checkedBatch.finalize(response)
                                let thresholdBatch = try threshold.blind(inputs(2))
                                let responses = try respond(shares, thresholdBatch.request, ids: [1, 2, 3])
                                let (_, cheaters) = try thresholdBatch.finalize(responses)
                                if !cheaters.isEmpty {
                                    failures.append("task \(task): honest servers named")
                                }
                            }
                        }
                    } catch {
                        failures.append("task \(task): \(error)")
                    }
                    return failures
                }
            }
            var all: [String] = []
            for await failures in group {
                all += failures
            }
            return all
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    /// Handles outlive the scope that made them while tasks still use them
    /// (reference counting keeps each handle until its last user is done;
    /// `deinit` frees it once).
    @Test("handles stay alive while tasks use them")
    func lifetimes() async throws {
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            do {
                let server = try OPRFServer.generate(suite: .p256)
                let request = try OPRFClient(suite: .p256).blind(inputs(4)).request
                for _ in 0..<8 {
                    group.addTask { try server.evaluate(request).count }
                }
            } // the scope's reference to the server ends here
            var counts: [Int] = []
            for try await count in group {
                counts.append(count)
            }
            return counts
        }
        #expect(results == [Int](repeating: 4 * Suite.p256.elementLength, count: 8))
    }
}
