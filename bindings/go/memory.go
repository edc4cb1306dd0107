package oblivex

// #include <stdlib.h>
// #include <string.h>
// #include <oblivex.h>
import "C"

import (
	"sync"
	"unsafe"
)

// resource owns one C handle: methods use it under a read lock, Close
// frees it (wiping its secrets) under the write lock, once.
type resource[T any] struct {
	mu   sync.RWMutex
	ptr  *T
	free func(*T)
}

func (r *resource[T]) use(f func(*T) error) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.ptr == nil {
		return ErrClosed
	}
	return f(r.ptr)
}

// spend runs f with exclusive use, then frees the handle (single-use
// client batches: their secrets are spent whatever f returns).
func (r *resource[T]) spend(f func(*T) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ptr == nil {
		return ErrClosed
	}
	err := f(r.ptr)
	r.free(r.ptr)
	r.ptr = nil
	return err
}

func (r *resource[T]) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ptr != nil {
		r.free(r.ptr)
		r.ptr = nil
	}
}

// ptr returns a C pointer to b's first byte (nil for an empty slice).
// The memory holds no Go pointers, so cgo may pass it.
func ptr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

func size(n int) C.size_t { return C.size_t(n) }

// cArrays holds byte strings copied to C memory as the pointer and length
// arrays the C API takes; free wipes and releases them.
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

// split cuts b into n equal parts.
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

// wipe zeroes b (for buffers that held secrets).
func wipe(b []byte) {
	for i := range b {
		b[i] = 0
	}
}
