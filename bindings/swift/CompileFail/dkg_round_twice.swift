// Must NOT compile: a DKG round state stepped twice. Each step consumes
// its state (it is ~Copyable), so a round cannot be repeated: the second
// call is refused with "'round1' consumed more than once". run-tests.sh
// checks the diagnostic.
import Oblivex

func roundTwice(session: [UInt8]) throws(OblivexError) {
    let round1 = try DKGRound1(suite: .ristretto255, threshold: 2, parties: 3, session: session, id: 1)
    _ = try round1.round2(commitments: [], shares: [])
    _ = try round1.round2(commitments: [], shares: []) // error: 'round1' consumed more than once
}
