//go:build !oblivex_wrongkey

package main

import oblivex "github.com/oblivex/oblivex/bindings/go"

// tamperShare is the identity: only the test build (tag oblivex_wrongkey,
// tamper_wrongkey.go) answers with a wrong key.
func tamperShare(share *oblivex.KeyShare) (*oblivex.KeyShare, error) { return share, nil }
