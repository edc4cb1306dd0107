// Must NOT compile: a batch finalized twice. `finalize` consumes the batch
// (it is ~Copyable), so the second call is refused by the compiler with
// "'batch' consumed more than once". run-tests.sh checks the diagnostic.
import Oblivex

func finalizeTwice(server: OPRFServer) throws(OblivexError) {
    let client = OPRFClient(suite: .ristretto255)
    let batch = try client.blind(["alice".utf8])
    let evaluated = try server.evaluate(batch.request)
    _ = try batch.finalize(evaluated)
    _ = try batch.finalize(evaluated) // error: 'batch' consumed more than once
}
