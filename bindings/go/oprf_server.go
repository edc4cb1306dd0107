package oblivex

// #include <oblivex.h>
import "C"

import "runtime"

// The RFC 9497 servers: one type per mode, as in the Rust API, so that
// each Evaluate takes and returns what its mode has (an info only in POPRF,
// a proof only in VOPRF and POPRF) and a server of one mode cannot be used
// where another is meant. Each is immutable and safe for concurrent use;
// Close wipes the key.

// OPRFServer is an RFC 9497 OPRF-mode server: a suite and a secret key.
// It also answers CheckedClient's requests, which need no proof.
type OPRFServer struct{ serverKey }

// VOPRFServer is an RFC 9497 VOPRF-mode server: each answer comes with a
// proof that it used the key of its PublicKey.
type VOPRFServer struct{ serverKey }

// POPRFServer is an RFC 9497 POPRF-mode server: VOPRF with a public info
// string, given to each Evaluate, that tweaks the key.
type POPRFServer struct{ serverKey }

// NewOPRFServer makes an OPRF server of suite from an encoded secret key
// (Suite.ScalarLen bytes): ErrUnknownSuite, or ErrInvalidScalar for a key
// of the wrong length, not canonical, or zero.
func NewOPRFServer(suite Suite, secretKey []byte) (*OPRFServer, error) {
	return newServer[OPRFServer](suite, ModeOPRF, withSecretKey(suite, secretKey))
}

// NewVOPRFServer is NewOPRFServer for a VOPRF server.
func NewVOPRFServer(suite Suite, secretKey []byte) (*VOPRFServer, error) {
	return newServer[VOPRFServer](suite, ModeVOPRF, withSecretKey(suite, secretKey))
}

// NewPOPRFServer is NewOPRFServer for a POPRF server.
func NewPOPRFServer(suite Suite, secretKey []byte) (*POPRFServer, error) {
	return newServer[POPRFServer](suite, ModePOPRF, withSecretKey(suite, secretKey))
}

// DeriveOPRFServer makes an OPRF server whose key is RFC 9497
// DeriveKeyPair(seed, info) for this suite and mode (the key depends on
// the mode, as in the RFC). ErrBadLength for an info longer than
// MaxInputLen, ErrDeriveKeyPair if no key was found.
func DeriveOPRFServer(suite Suite, seed, info []byte) (*OPRFServer, error) {
	return newServer[OPRFServer](suite, ModeOPRF, derived(suite, seed, info))
}

// DeriveVOPRFServer is DeriveOPRFServer for a VOPRF server.
func DeriveVOPRFServer(suite Suite, seed, info []byte) (*VOPRFServer, error) {
	return newServer[VOPRFServer](suite, ModeVOPRF, derived(suite, seed, info))
}

// DerivePOPRFServer is DeriveOPRFServer for a POPRF server.
func DerivePOPRFServer(suite Suite, seed, info []byte) (*POPRFServer, error) {
	return newServer[POPRFServer](suite, ModePOPRF, derived(suite, seed, info))
}

// GenerateOPRFServer makes an OPRF server with a fresh key from the
// operating system's random source.
func GenerateOPRFServer(suite Suite) (*OPRFServer, error) {
	return newServer[OPRFServer](suite, ModeOPRF, generated(suite))
}

// GenerateVOPRFServer is GenerateOPRFServer for a VOPRF server.
func GenerateVOPRFServer(suite Suite) (*VOPRFServer, error) {
	return newServer[VOPRFServer](suite, ModeVOPRF, generated(suite))
}

// GeneratePOPRFServer is GenerateOPRFServer for a POPRF server.
func GeneratePOPRFServer(suite Suite) (*POPRFServer, error) {
	return newServer[POPRFServer](suite, ModePOPRF, generated(suite))
}

// Evaluate raises every blinded element (concatenated element encodings,
// as sent by a client) to the key and returns the evaluated elements (same
// length, same order).
//
// Every element is an evaluation the client can use (a checked request's
// balancer looks like any input): rate limits must count elements, not
// calls.
//
// ErrBadLength for a request that is not a whole, non-zero number of
// elements (at most 65535); ErrInvalidElement for any element not
// canonical, not in the group, or the identity.
func (s *OPRFServer) Evaluate(blinded []byte) ([]byte, error) {
	evaluated, _, err := s.evaluate(blinded, nil)
	return evaluated, err
}

// Evaluate is OPRFServer.Evaluate with one proof for the whole batch, for
// the client to verify against PublicKey.
func (s *VOPRFServer) Evaluate(blinded []byte) (evaluated, proof []byte, err error) {
	return s.evaluate(blinded, nil)
}

// Evaluate is VOPRFServer.Evaluate under the key tweaked by info, the
// public input the client blinds with (at most MaxInputLen bytes; may be
// empty). ErrInvalidInput if the info gives an unusable key.
func (s *POPRFServer) Evaluate(blinded, info []byte) (evaluated, proof []byte, err error) {
	return s.evaluate(blinded, info)
}

// serverKey is what the three servers share: the suite, the mode the key
// was made for, the C handle holding the secret key, and the public key.
type serverKey struct {
	suite     Suite
	mode      Mode
	publicKey *PublicKey
	res       resource[*C.struct_oblivex_oprf_server]
}

// Close wipes and releases the key. Idempotent; always nil.
func (k *serverKey) Close() error { return k.res.close() }

// Suite is the server's suite.
func (k *serverKey) Suite() Suite { return k.suite }

// Mode is the server's mode, the one its type names.
func (k *serverKey) Mode() Mode { return k.mode }

// PublicKey is the server's public key k·B, to publish: what VOPRF, POPRF
// and checked clients verify against (it stays readable after Close).
func (k *serverKey) PublicKey() *PublicKey { return k.publicKey }

// SecretKey is the encoded secret key (Suite.ScalarLen bytes), for storing
// it: handle it as the secret it is and wipe it after use.
func (k *serverKey) SecretKey() ([]byte, error) {
	out := newOut(k.suite.ScalarLen())
	err := k.res.use(func(p *C.struct_oblivex_oprf_server) error {
		return check(C.oblivex_oprf_server_secret_key(p, out.ptr(), out.capacity(), &out.written))
	})
	if err != nil {
		return nil, err
	}
	return out.bytes(), nil
}

// evaluate is the C server step: the proof is nil in OPRF mode, and info
// is given only by a POPRFServer.
func (k *serverKey) evaluate(blinded, info []byte) (evaluated, proof []byte, err error) {
	ev := newOut(len(blinded))
	pr := newOut(k.suite.ProofLen())
	err = k.res.use(func(p *C.struct_oblivex_oprf_server) error {
		return check(C.oblivex_oprf_server_evaluate(p, in(blinded), size(len(blinded)), opt(info), size(len(info)),
			ev.ptr(), ev.capacity(), &ev.written, pr.ptr(), pr.capacity(), &pr.written))
	})
	if err != nil {
		return nil, nil, err
	}
	return ev.bytes(), pr.bytes(), nil
}

// keyMaker is one of the C API's three ways to make a server handle, for
// the given mode.
type keyMaker func(mode C.oblivex_oprf_mode, handle **C.struct_oblivex_oprf_server) C.oblivex_status

func withSecretKey(suite Suite, secretKey []byte) keyMaker {
	return func(mode C.oblivex_oprf_mode, handle **C.struct_oblivex_oprf_server) C.oblivex_status {
		return C.oblivex_oprf_server_new(C.oblivex_suite(suite), mode, in(secretKey), size(len(secretKey)), handle)
	}
}

func derived(suite Suite, seed, info []byte) keyMaker {
	return func(mode C.oblivex_oprf_mode, handle **C.struct_oblivex_oprf_server) C.oblivex_status {
		return C.oblivex_oprf_server_derive(C.oblivex_suite(suite), mode, in(seed), size(len(seed)),
			opt(info), size(len(info)), handle)
	}
}

func generated(suite Suite) keyMaker {
	return func(mode C.oblivex_oprf_mode, handle **C.struct_oblivex_oprf_server) C.oblivex_status {
		return C.oblivex_oprf_server_generate(C.oblivex_suite(suite), mode, handle)
	}
}

// newServer makes the handle of a server of type S in mode and wraps it
// (freeing the handle if its public key cannot be read); a finalizer
// closes a server that is forgotten.
func newServer[S any, P interface {
	*S
	key() *serverKey
}](suite Suite, mode Mode, makeHandle keyMaker) (P, error) {
	var p *C.struct_oblivex_oprf_server
	if err := check(makeHandle(C.oblivex_oprf_mode(mode), &p)); err != nil {
		return nil, err
	}
	out := newOut(suite.ElementLen())
	if err := check(C.oblivex_oprf_server_public_key(p, out.ptr(), out.capacity(), &out.written)); err != nil {
		C.oblivex_oprf_server_free(p)
		return nil, err
	}
	s := P(new(S))
	k := s.key()
	k.suite, k.mode = suite, mode
	k.publicKey = &PublicKey{suite: suite, encoded: out.bytes()}
	k.res.init(p, func(p *C.struct_oblivex_oprf_server) { C.oblivex_oprf_server_free(p) })
	runtime.SetFinalizer(s, func(s P) { s.key().Close() })
	return s, nil
}

func (k *serverKey) key() *serverKey { return k }
