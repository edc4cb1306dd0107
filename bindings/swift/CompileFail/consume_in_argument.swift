// Must NOT compile: the server's answer computed in the argument of
// `finalize`. The batch is consumed by the call before its argument reads
// `batch.request`, so the compiler refuses it with "'batch' used after
// consume" (read the request first, as control.swift does). run-tests.sh
// checks the diagnostic.
import Oblivex

func consumeInArgument(server: OPRFServer) throws(OblivexError) -> [[UInt8]] {
    let client = OPRFClient(suite: .ristretto255)
    let batch = try client.blind(["alice".utf8])
    return try batch.finalize(try server.evaluate(batch.request)) // error: 'batch' used after consume
}
