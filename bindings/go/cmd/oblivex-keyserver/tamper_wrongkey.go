//go:build oblivex_wrongkey

package main

import (
	"log"

	oblivex "github.com/oblivex/oblivex/bindings/go"
)

// tamperShare replaces the loaded share (after it was checked) by a share
// with the same party id of a fresh, unrelated key: a server that answers
// with a wrong key, for the tests that its clients name it. Built only
// with the tag oblivex_wrongkey; never deploy such a binary.
func tamperShare(share *oblivex.KeyShare) (*oblivex.KeyShare, error) {
	defer share.Close()
	shares, commitments, err := oblivex.Deal(share.Suite(), nil, 1, int(share.ID()))
	if err != nil {
		return nil, err
	}
	commitments.Close()
	for _, s := range shares[:len(shares)-1] {
		s.Close()
	}
	log.Printf("TEST BUILD (oblivex_wrongkey): party %d answers with a wrong key", share.ID())
	return shares[len(shares)-1], nil
}
