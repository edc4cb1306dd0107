package oblivex

// #include <oblivex.h>
import "C"

import "runtime"

// Server is an RFC 9497 OPRF server: a suite, a mode and a secret key.
// Immutable; safe for concurrent use. Close wipes the key.
type Server struct {
	suite Suite
	mode  Mode
	res   resource[C.struct_oblivex_oprf_server]
}

func newServer(suite Suite, mode Mode, p *C.struct_oblivex_oprf_server) *Server {
	s := &Server{suite: suite, mode: mode, res: resource[C.struct_oblivex_oprf_server]{ptr: p, free: func(p *C.struct_oblivex_oprf_server) { C.oblivex_oprf_server_free(p) }}}
	runtime.SetFinalizer(s, (*Server).Close)
	return s
}

// NewServer makes a server from an encoded secret key (ErrInvalidScalar if
// not canonical or zero).
func NewServer(suite Suite, mode Mode, secretKey []byte) (*Server, error) {
	var p *C.struct_oblivex_oprf_server
	if err := check(C.oblivex_oprf_server_new(C.int(suite), C.int(mode), ptr(secretKey), size(len(secretKey)), &p)); err != nil {
		return nil, err
	}
	return newServer(suite, mode, p), nil
}

// DeriveServer makes a server whose key is RFC 9497 DeriveKeyPair(seed, info).
func DeriveServer(suite Suite, mode Mode, seed, info []byte) (*Server, error) {
	var p *C.struct_oblivex_oprf_server
	if err := check(C.oblivex_oprf_server_derive(C.int(suite), C.int(mode), ptr(seed), size(len(seed)), ptr(info), size(len(info)), &p)); err != nil {
		return nil, err
	}
	return newServer(suite, mode, p), nil
}

// GenerateServer makes a server with a fresh random key.
func GenerateServer(suite Suite, mode Mode) (*Server, error) {
	var p *C.struct_oblivex_oprf_server
	if err := check(C.oblivex_oprf_server_generate(C.int(suite), C.int(mode), &p)); err != nil {
		return nil, err
	}
	return newServer(suite, mode, p), nil
}

// Close wipes and releases the key. Idempotent.
func (s *Server) Close() { s.res.close() }

// Suite is the server's suite.
func (s *Server) Suite() Suite { return s.suite }

// PublicKey is the encoded public key k·B.
func (s *Server) PublicKey() ([]byte, error) {
	out := make([]byte, s.suite.ElementLen())
	var written C.size_t
	err := s.res.use(func(p *C.struct_oblivex_oprf_server) error {
		return check(C.oblivex_oprf_server_public_key(p, ptr(out), size(len(out)), &written))
	})
	runtime.KeepAlive(s)
	if err != nil {
		return nil, err
	}
	return out[:written], nil
}

// SecretKey is the encoded secret key (wipe it after use).
func (s *Server) SecretKey() ([]byte, error) {
	out := make([]byte, s.suite.ScalarLen())
	var written C.size_t
	err := s.res.use(func(p *C.struct_oblivex_oprf_server) error {
		return check(C.oblivex_oprf_server_secret_key(p, ptr(out), size(len(out)), &written))
	})
	runtime.KeepAlive(s)
	if err != nil {
		return nil, err
	}
	return out[:written], nil
}

// Evaluate raises every element of a request (concatenated encodings) to
// the key, without a proof: the server side of the OPRF mode and of the
// checked batch (CheckedClient), whatever the server's mode.
func (s *Server) Evaluate(request []byte) ([]byte, error) {
	out := make([]byte, len(request))
	var written C.size_t
	err := s.res.use(func(p *C.struct_oblivex_oprf_server) error {
		return check(C.oblivex_oprf_server_evaluate(p, ptr(request), size(len(request)), ptr(out), size(len(out)), &written))
	})
	runtime.KeepAlive(s)
	if err != nil {
		return nil, err
	}
	return out[:written], nil
}

// BlindEvaluate evaluates a request in the server's mode: in VOPRF and
// POPRF mode with one proof for the batch (nil in OPRF mode). info is the
// POPRF public input.
func (s *Server) BlindEvaluate(request, info []byte) (evaluated, proof []byte, err error) {
	evaluated = make([]byte, len(request))
	proof = make([]byte, s.suite.ProofLen())
	var ew, pw C.size_t
	err = s.res.use(func(p *C.struct_oblivex_oprf_server) error {
		return check(C.oblivex_oprf_server_blind_evaluate(p, ptr(request), size(len(request)), ptr(info), size(len(info)),
			ptr(evaluated), size(len(evaluated)), &ew, ptr(proof), size(len(proof)), &pw))
	})
	runtime.KeepAlive(s)
	if err != nil {
		return nil, nil, err
	}
	if pw == 0 {
		proof = nil
	} else {
		proof = proof[:pw]
	}
	return evaluated[:ew], proof, nil
}

// Client is an RFC 9497 client configuration: suite, mode, and (VOPRF,
// POPRF) the server's public key.
type Client struct {
	Suite     Suite
	Mode      Mode
	PublicKey []byte
}

// FinalizeData is one blinded batch's secret state (inputs and blinds),
// kept between Blind and Finalize. Single use; Close wipes it.
type FinalizeData struct {
	suite Suite
	count int
	res   resource[C.struct_oblivex_oprf_client_batch]
}

// Close wipes and releases the batch. Idempotent.
func (f *FinalizeData) Close() { f.res.close() }

// Blind hashes and blinds a batch of inputs and returns the state to keep
// and the request to send (concatenated element encodings). info is the
// POPRF public input (nil otherwise).
func (c *Client) Blind(inputs [][]byte, info []byte) (*FinalizeData, []byte, error) {
	arrays := newCArrays(inputs)
	defer arrays.free()
	request := make([]byte, len(inputs)*c.Suite.ElementLen())
	var written C.size_t
	var p *C.struct_oblivex_oprf_client_batch
	err := check(C.oblivex_oprf_client_blind(C.int(c.Suite), C.int(c.Mode), arrays.ptrs, arrays.lens, size(len(inputs)),
		ptr(info), size(len(info)), ptr(c.PublicKey), size(len(c.PublicKey)), ptr(request), size(len(request)), &written, &p))
	if err != nil {
		return nil, nil, err
	}
	f := &FinalizeData{suite: c.Suite, count: len(inputs), res: resource[C.struct_oblivex_oprf_client_batch]{ptr: p, free: func(p *C.struct_oblivex_oprf_client_batch) { C.oblivex_oprf_client_batch_free(p) }}}
	runtime.SetFinalizer(f, (*FinalizeData).Close)
	return f, request[:written], nil
}

// Finalize checks the proof (VOPRF, POPRF: once for the batch) and returns
// the PRF output of every input, in order. It spends the batch.
func (c *Client) Finalize(f *FinalizeData, evaluated, proof []byte) ([][]byte, error) {
	outputs := make([]byte, f.count*f.suite.OutputLen())
	var written C.size_t
	err := f.res.spend(func(p *C.struct_oblivex_oprf_client_batch) error {
		return check(C.oblivex_oprf_client_finalize(p, ptr(evaluated), size(len(evaluated)), ptr(proof), size(len(proof)),
			ptr(outputs), size(len(outputs)), &written))
	})
	runtime.KeepAlive(f)
	if err != nil {
		return nil, err
	}
	return split(outputs[:written], f.count), nil
}
