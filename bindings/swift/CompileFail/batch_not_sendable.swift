// Must NOT compile: a client batch is not Sendable (a C batch is for one
// thread), so it cannot be shared with other tasks.
import Oblivex

func requireSendable<T: Sendable & ~Copyable>(_ value: borrowing T) {}

func share(batch: borrowing CheckedBatch) {
    requireSendable(batch) // error: conformance of 'CheckedBatch' to 'Sendable' is unavailable
}
