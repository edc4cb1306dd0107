package oblivex

// #include <stdlib.h>
// #include <string.h>
// #include <oblivex.h>
import "C"

import (
	"errors"
	"sync"
	"unsafe"
)

// resource owns one C handle P (a pointer to an opaque C struct: the
// struct itself, incomplete, cannot be a type argument): methods use it
// under a read lock (an immutable handle) or the write lock (a handle a
// call changes), Close frees it (wiping its secrets) under the write
// lock, once. A client
// batch is also freed by the call that spends it (finish), after which it
// reports ErrBatchUsed rather than ErrClosed.
type resource[P comparable] struct {
	mu    sync.RWMutex
	ptr   P // the handle; the zero value (nil) once freed
	free  func(P)
	spent bool
}

// init takes ownership of p, released by free.
func (r *resource[P]) init(p P, free func(P)) {
	r.ptr = p
	r.free = free
}

// live reports whether the handle is still held.
func (r *resource[P]) live() bool {
	var freed P
	return r.ptr != freed
}

// release frees the handle (it is live).
func (r *resource[P]) release() {
	var freed P
	r.free(r.ptr)
	r.ptr = freed
}

// use runs f with the live handle (shared use: immutable handles, which
// the C API lets any number of threads use at once).
func (r *resource[P]) use(f func(P) error) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.withLive(f)
}

// useAll runs f with the live handles of resources (in order, repeats
// allowed), each distinct resource read-locked once for the call (a read
// lock taken twice could deadlock with a waiting Close). ErrNullPointer
// for a nil resource, ErrClosed for a freed one.
func useAll[P comparable](resources []*resource[P], f func([]P) error) error {
	locked := make(map[*resource[P]]bool, len(resources))
	defer func() {
		for r := range locked {
			r.mu.RUnlock()
		}
	}()
	ptrs := make([]P, len(resources))
	for i, r := range resources {
		if r == nil {
			return ErrNullPointer
		}
		if !locked[r] {
			r.mu.RLock()
			locked[r] = true
		}
		if !r.live() {
			return r.gone()
		}
		ptrs[i] = r.ptr
	}
	return f(ptrs)
}

// cHandles copies handles (at least one) into C memory, the array a C call
// reads; the caller frees it with C.free(unsafe.Pointer(&ptrs[0])).
func cHandles[P any](handles []P) []P {
	var zero P
	ptrs := unsafe.Slice((*P)(C.calloc(C.size_t(len(handles)), C.size_t(unsafe.Sizeof(zero)))), len(handles))
	copy(ptrs, handles)
	return ptrs
}

// exclusive runs f with the live handle and no other use at the same time:
// for handles that a call changes (a DKG party, which the C API gives to
// one thread at a time, since each step rewrites its state).
func (r *resource[P]) exclusive(f func(P) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.withLive(f)
}

// withLive runs f with the handle, or reports it gone (a lock is held).
func (r *resource[P]) withLive(f func(P) error) error {
	if !r.live() {
		return r.gone()
	}
	return f(r.ptr)
}

// finish runs a client batch's last step f with exclusive use. When the
// batch is spent (success, or a failure that comes after the answer was
// checked: see spendsBatch) the handle is freed at once; a call refused
// for a malformed argument leaves it usable, as the C API does.
func (r *resource[P]) finish(f func(P) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.live() {
		return r.gone()
	}
	err := f(r.ptr)
	if err == nil || spendsBatch(err) {
		r.release()
		r.spent = true
	}
	return err
}

// close frees the handle if it is still held. Idempotent.
func (r *resource[P]) close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.live() {
		r.release()
	}
	return nil
}

// gone is the error for a handle no longer held (the lock is held).
func (r *resource[P]) gone() error {
	if r.spent {
		return ErrBatchUsed
	}
	return ErrClosed
}

// spendsBatch reports whether a client batch's last step failed after it
// took the batch's secrets (so the C handle is spent): a failed check, too
// few correct answers, an ElGamal identity plaintext, party ids the
// threshold clients reject once they combine (the package checks them
// first), or a batch spent already.
func spendsBatch(err error) bool {
	return errors.Is(err, ErrVerificationFailed) || errors.Is(err, ErrNotEnoughResponses) ||
		errors.Is(err, ErrInvalidInput) || errors.Is(err, ErrInvalidPartyID) || errors.Is(err, ErrBatchUsed)
}

// noBytes backs the pointer passed for an empty required input: the C API
// refuses NULL there even with length 0, and reports the empty input by its
// own status (ErrEmptyInput, ErrBadLength) instead. C never writes to it.
var noBytes [1]byte

// in returns a C pointer to b's first byte, never NULL (an empty b gives a
// valid pointer to zero bytes). The memory holds no Go pointers, so cgo
// may pass it.
func in(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return (*C.uint8_t)(unsafe.Pointer(&noBytes[0]))
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

// opt returns a C pointer to b's first byte, or NULL for an empty b: the
// C API's "NULL/0 for none" of an optional input.
func opt(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

// outBuffer is a Go buffer of n bytes for the C API to write (at least one
// byte, so that its pointer is never NULL), with the size_t that receives
// the length written.
type outBuffer struct {
	buf     []byte
	written C.size_t
}

func newOut(n int) *outBuffer {
	if n < 1 {
		return &outBuffer{buf: make([]byte, 1)[:0:1]}
	}
	return &outBuffer{buf: make([]byte, n)}
}

// ptr, capacity: the (noun, noun_capacity) pair of an output argument.
func (o *outBuffer) ptr() *C.uint8_t {
	return (*C.uint8_t)(unsafe.Pointer(&o.buf[:1][0]))
}

func (o *outBuffer) capacity() C.size_t { return C.size_t(len(o.buf)) }

// bytes is what the C API wrote (nil if nothing).
func (o *outBuffer) bytes() []byte {
	if o.written == 0 {
		return nil
	}
	return o.buf[:o.written:o.written]
}

func size(n int) C.size_t { return C.size_t(n) }

// cArrays holds byte strings copied to C memory as the pointer and length
// arrays the C API takes (an array of byte strings: noun, noun_lens,
// count); free wipes and releases them. The copies are needed: cgo may not
// pass Go memory that holds Go pointers.
type cArrays struct {
	ptrs **C.uint8_t
	lens *C.size_t
	n    int
}

func newCArrays(items [][]byte) *cArrays {
	n := len(items)
	a := &cArrays{n: n}
	if n == 0 {
		return a
	}
	a.ptrs = (**C.uint8_t)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(uintptr(0)))))
	a.lens = (*C.size_t)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(C.size_t(0)))))
	ptrs := unsafe.Slice(a.ptrs, n)
	lens := unsafe.Slice(a.lens, n)
	for i, item := range items {
		if len(item) > 0 {
			ptrs[i] = (*C.uint8_t)(C.CBytes(item))
		}
		lens[i] = C.size_t(len(item))
	}
	return a
}

func (a *cArrays) free() {
	if a.n == 0 {
		return
	}
	ptrs := unsafe.Slice(a.ptrs, a.n)
	lens := unsafe.Slice(a.lens, a.n)
	for i := range ptrs {
		if ptrs[i] != nil {
			C.memset(unsafe.Pointer(ptrs[i]), 0, lens[i])
			C.free(unsafe.Pointer(ptrs[i]))
		}
	}
	C.free(unsafe.Pointer(a.ptrs))
	C.free(unsafe.Pointer(a.lens))
}

// ids returns a C pointer to a list of party ids (NULL for none: the C
// API's "NULL/0" of an optional quorum).
func ids(q []uint16) *C.uint16_t {
	if len(q) == 0 {
		return nil
	}
	return (*C.uint16_t)(unsafe.Pointer(&q[0]))
}

// split cuts b into n equal parts (each with its own capacity, so that
// appending to one does not overwrite the next).
func split(b []byte, n int) [][]byte {
	out := make([][]byte, n)
	if n == 0 {
		return out
	}
	w := len(b) / n
	for i := range out {
		out[i] = b[i*w : (i+1)*w : (i+1)*w]
	}
	return out
}

// flatten packs equal-length items (ErrEmptyInput for none, ErrBadLength
// if their lengths differ; the partial copy is wiped, as items may be
// secret).
func flatten(items [][]byte) ([]byte, int, error) {
	if len(items) == 0 {
		return nil, 0, ErrEmptyInput
	}
	width := len(items[0])
	out := make([]byte, 0, width*len(items))
	for _, v := range items {
		if len(v) != width {
			wipe(out)
			return nil, 0, ErrBadLength
		}
		out = append(out, v...)
	}
	return out, width, nil
}

// wipe zeroes b (for buffers that held secrets).
func wipe(b []byte) {
	for i := range b {
		b[i] = 0
	}
}
