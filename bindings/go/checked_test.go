package oblivex

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

func inputs(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = []byte(fmt.Sprintf("input %d", i))
	}
	return out
}

// The checked batch on every suite and both checks: outputs equal the plain
// OPRF's; a server that deviates on one element is caught.
func TestCheckedOPRF(t *testing.T) {
	for _, suite := range []Suite{Ristretto255SHA512, P256SHA256, BLS12381G1SHA256, FFDHE2048SHA512} {
		server, err := GenerateServer(suite, ModeOPRF)
		if err != nil {
			t.Fatal(err)
		}
		pk, _ := server.PublicKey()
		in := inputs(5)
		plain := &Client{Suite: suite, Mode: ModeOPRF}
		state, request, _ := plain.Blind(in, nil)
		evaluated, _ := server.Evaluate(request)
		want, err := plain.Finalize(state, evaluated, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, chk := range []Check{CommittedKey, KeyFree} {
			client := &CheckedClient{Suite: suite, Check: chk}
			fin, request, err := client.Blind(in)
			if err != nil {
				t.Fatal(err)
			}
			if len(request) != client.RequestLen(len(in))*suite.ElementLen() {
				t.Fatalf("request length %d", len(request))
			}
			response, _ := server.Evaluate(request)
			got, err := client.Finalize(fin, response, pk)
			if err != nil {
				t.Fatalf("%v %v: %v", suite, chk, err)
			}
			for i := range got {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("%v %v: output %d differs from the plain OPRF", suite, chk, i)
				}
			}
			// A cheater: the last element evaluated with another key.
			other, _ := GenerateServer(suite, ModeOPRF)
			fin, request, _ = client.Blind(in)
			response, _ = server.Evaluate(request)
			w := suite.ElementLen()
			last, _ := other.Evaluate(request[len(request)-w:])
			copy(response[len(response)-w:], last)
			if _, err := client.Finalize(fin, response, pk); !errors.Is(err, ErrVerificationFailed) {
				t.Fatalf("%v %v: cheater passed: %v", suite, chk, err)
			}
			other.Close()
		}
		server.Close()
	}
}

func TestCheckedOPRFErrors(t *testing.T) {
	client := &CheckedClient{Suite: Ristretto255SHA512, Check: CommittedKey, Kappa: 7}
	if _, _, err := client.Blind(inputs(2)); !errors.Is(err, ErrInvalidKappa) {
		t.Fatalf("kappa: %v", err)
	}
	client = &CheckedClient{Suite: Ristretto255SHA512, Check: Check(9)}
	if _, _, err := client.Blind(inputs(2)); !errors.Is(err, ErrUnknownCheck) {
		t.Fatalf("check: %v", err)
	}
	client = &CheckedClient{Suite: Ristretto255SHA512, Check: CommittedKey}
	fin, request, err := client.Blind(inputs(2))
	if err != nil {
		t.Fatal(err)
	}
	defer fin.Close()
	if _, err := client.Finalize(fin, request, nil); !errors.Is(err, ErrMissingPublicKey) {
		t.Fatalf("no key: %v", err)
	}
}
