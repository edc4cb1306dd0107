package oblivex

// #include <oblivex.h>
import "C"

import "runtime"

// CheckedClient is the batch OPRF client secure against a malicious server
// without any proof (the balancer check): its request carries one extra
// element (more for the KeyFree check on small batches), the server runs
// its plain Server.Evaluate, and Finalize returns every output or
// ErrVerificationFailed and none. Kappa is the bit length of the secret
// verification factors (32..128; 0 means 64): a cheating server passes
// with probability at most 2^-Kappa.
type CheckedClient struct {
	Suite Suite
	Check Check
	Kappa uint32
}

// CheckedFinalizeData is one checked batch's secret state. Single use;
// Close wipes it.
type CheckedFinalizeData struct {
	suite Suite
	check Check
	count int
	res   resource[C.struct_oblivex_checked_oprf_client]
}

// Close wipes and releases the batch. Idempotent.
func (f *CheckedFinalizeData) Close() { f.res.close() }

// RequestLen is the number of elements a checked request for count inputs
// holds (0 for an invalid check or kappa).
func (c *CheckedClient) RequestLen(count int) int {
	return int(C.oblivex_checked_oprf_request_len(C.int(c.Check), C.uint32_t(c.Kappa), size(count)))
}

// Blind hashes and blinds the inputs, hides the balancer among them, and
// returns the state to keep and the request to send to the server.
func (c *CheckedClient) Blind(inputs [][]byte) (*CheckedFinalizeData, []byte, error) {
	arrays := newCArrays(inputs)
	defer arrays.free()
	request := make([]byte, c.RequestLen(len(inputs))*c.Suite.ElementLen())
	var written C.size_t
	var p *C.struct_oblivex_checked_oprf_client
	err := check(C.oblivex_checked_oprf_client_blind(C.int(c.Suite), C.int(c.Check), C.uint32_t(c.Kappa), arrays.ptrs, arrays.lens,
		size(len(inputs)), ptr(request), size(len(request)), &written, &p))
	if err != nil {
		return nil, nil, err
	}
	f := &CheckedFinalizeData{suite: c.Suite, check: c.Check, count: len(inputs), res: resource[C.struct_oblivex_checked_oprf_client]{ptr: p, free: func(p *C.struct_oblivex_checked_oprf_client) { C.oblivex_checked_oprf_client_free(p) }}}
	runtime.SetFinalizer(f, (*CheckedFinalizeData).Close)
	return f, request[:written], nil
}

// Finalize checks the server's response against its public key (required
// for CommittedKey, ignored for KeyFree) and returns every PRF output, in
// order, or ErrVerificationFailed and none. It spends the batch, whatever
// the outcome (never retry with the same state: blind again, and stop
// using a server that failed).
func (c *CheckedClient) Finalize(f *CheckedFinalizeData, response, publicKey []byte) ([][]byte, error) {
	if f.check == CommittedKey && len(publicKey) == 0 {
		return nil, ErrMissingPublicKey
	}
	outputs := make([]byte, f.count*f.suite.OutputLen())
	var written C.size_t
	err := f.res.spend(func(p *C.struct_oblivex_checked_oprf_client) error {
		return check(C.oblivex_checked_oprf_client_verify_finalize(p, ptr(response), size(len(response)), ptr(publicKey),
			size(len(publicKey)), ptr(outputs), size(len(outputs)), &written))
	})
	runtime.KeepAlive(f)
	if err != nil {
		return nil, err
	}
	return split(outputs[:written], f.count), nil
}
