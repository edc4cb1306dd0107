/// An RFC 9497 mode as a type, the parameter of ``RFC9497Server``,
/// ``RFC9497Client`` and ``RFC9497Batch``: the mode is in the type, as in
/// the Rust API (and CIRCL's `oprf`), so each server, client and batch
/// takes exactly what its mode has (an info only in POPRF, a proof only in
/// VOPRF and POPRF) and a value of one mode cannot be used where another is
/// meant: the compiler refuses it. Use the aliases: ``OPRFServer``,
/// ``VOPRFServer``, ``POPRFServer``, ``OPRFClient``, … The package's three
/// caseless enums ``OPRFMode``, ``VOPRFMode`` and ``POPRFMode`` are the
/// conforming types.
public protocol RFC9497Mode {
    /// The mode the C API is told: the value of ``RFC9497Server/mode`` and
    /// ``RFC9497Client/mode``.
    static var mode: Mode { get }
}

/// The RFC 9497 modes whose answers carry a proof against the server's
/// public key: ``VOPRFMode`` and ``POPRFMode``. Their clients are made with
/// that key, and their batches are finalized with the proof.
public protocol VerifiableRFC9497Mode: RFC9497Mode {}

/// RFC 9497's OPRF mode as a type: no proof; the server's answer is not
/// verified (``CheckedClient`` verifies one without a proof).
public enum OPRFMode: RFC9497Mode {
    /// ``Mode/oprf``.
    public static var mode: Mode { .oprf }
}

/// RFC 9497's VOPRF mode as a type: one proof per batch against the
/// server's public key.
public enum VOPRFMode: VerifiableRFC9497Mode {
    /// ``Mode/voprf``.
    public static var mode: Mode { .voprf }
}

/// RFC 9497's POPRF mode as a type: VOPRF with a public info string, given
/// to the server's `evaluate` and the client's `blind`, that tweaks the
/// key.
public enum POPRFMode: VerifiableRFC9497Mode {
    /// ``Mode/poprf``.
    public static var mode: Mode { .poprf }
}

/// An RFC 9497 OPRF-mode server (``RFC9497Server``): it also answers the
/// requests of ``CheckedClient``, which need no proof.
public typealias OPRFServer = RFC9497Server<OPRFMode>
/// An RFC 9497 VOPRF-mode server: each answer comes with a proof that it
/// used the key of its ``RFC9497Server/publicKey``.
public typealias VOPRFServer = RFC9497Server<VOPRFMode>
/// An RFC 9497 POPRF-mode server: VOPRF with a public info string, given
/// to each `evaluate`, that tweaks the key.
public typealias POPRFServer = RFC9497Server<POPRFMode>

/// An RFC 9497 OPRF-mode client (``RFC9497Client``) of a suite.
public typealias OPRFClient = RFC9497Client<OPRFMode>
/// An RFC 9497 VOPRF-mode client: it verifies each answer's proof against
/// the server's public key.
public typealias VOPRFClient = RFC9497Client<VOPRFMode>
/// An RFC 9497 POPRF-mode client: VOPRF with a public info string, given
/// to each `blind`, that tweaks the server's key.
public typealias POPRFClient = RFC9497Client<POPRFMode>

/// One blinded batch of an ``OPRFClient`` (``RFC9497Batch``).
public typealias OPRFBatch = RFC9497Batch<OPRFMode>
/// One blinded batch of a ``VOPRFClient``.
public typealias VOPRFBatch = RFC9497Batch<VOPRFMode>
/// One blinded batch of a ``POPRFClient`` (blinded under its info).
public typealias POPRFBatch = RFC9497Batch<POPRFMode>
