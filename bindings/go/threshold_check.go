package oblivex

// #include <oblivex.h>
import "C"

// The threshold clients' check of one server's response as it arrives,
// without spending the batch: a client checks each response when it
// comes and finalizes with the first t that pass, instead of waiting for
// every server.

// thresholdCheck is a threshold batch's C check of one response (P: the
// batch's handle).
type thresholdCheck[P any] func(p P, party C.uint16_t, response *C.uint8_t, responseLen C.size_t) C.oblivex_status

// checkResponse runs a batch's C check on r with the live batch (shared
// use: checks may run concurrently, never beside Finalize or Close).
func checkResponse[P comparable](res *resource[P], r Response, run thresholdCheck[P]) error {
	return res.use(func(p P) error {
		return check(run(p, C.uint16_t(r.Party), in(r.Elements), size(len(r.Elements))))
	})
}

// CheckResponse checks one server's response against that server's
// commitment (weighted, with a named quorum) without spending the batch:
// nil if it passes, ErrVerificationFailed if the server cheated (the
// answer fails its check, does not decode, or is not as long as the
// request), ErrInvalidPartyID for an id zero, above MaxParties or outside
// the named quorum, ErrBatchUsed once the batch is finalized. Check each
// response as it arrives and call Finalize with the first t that passed:
// Finalize combines them at once. Constant time in the batch's secrets;
// every response checked gives its server one try at passing wrongly,
// with probability at most 2^-κ. Safe for concurrent use.
func (b *ThresholdOPRFBatch) CheckResponse(r Response) error {
	return checkResponse(&b.res, r, func(p *C.struct_oblivex_threshold_oprf_batch, party C.uint16_t, response *C.uint8_t,
		n C.size_t) C.oblivex_status {
		return C.oblivex_threshold_oprf_batch_check(p, party, response, n)
	})
}

// CheckResponse checks one signer's response without spending the batch,
// as ThresholdOPRFBatch.CheckResponse (the G1 batch check, no pairing).
func (b *BLSBatch) CheckResponse(r Response) error {
	return checkResponse(&b.res, r, func(p *C.struct_oblivex_bls_batch, party C.uint16_t, response *C.uint8_t,
		n C.size_t) C.oblivex_status {
		return C.oblivex_bls_batch_check(p, party, response, n)
	})
}

// CheckResponse checks one server's response without spending the batch,
// as ThresholdOPRFBatch.CheckResponse.
func (b *ElGamalBatch) CheckResponse(r Response) error {
	return checkResponse(&b.res, r, func(p *C.struct_oblivex_elgamal_batch, party C.uint16_t, response *C.uint8_t,
		n C.size_t) C.oblivex_status {
		return C.oblivex_elgamal_batch_check(p, party, response, n)
	})
}
