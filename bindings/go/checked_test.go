package oblivex

import (
	"bytes"
	"errors"
	"testing"
)

// The checked batch on every suite and both checks: outputs equal the plain
// OPRF's; a server that deviates on one element is caught.
func TestCheckedOPRF(t *testing.T) {
	for _, suite := range []Suite{SuiteRistretto255, SuiteP256, SuiteBLS12381G1, SuiteFFDHE2048} {
		server := must(GenerateOPRFServer(suite))
		in := inputs(5)
		plain := must(NewOPRFClient(suite))
		batch := must(plain.Blind(in))
		evaluated, _ := server.Evaluate(batch.Request())
		want := must(batch.Finalize(evaluated))
		for _, chk := range []Check{CheckCommittedKey, CheckKeyFree} {
			var key *PublicKey
			if chk == CheckCommittedKey {
				key = server.PublicKey()
			}
			client := must(NewCheckedClient(suite, chk, key, 0))
			if client.Suite() != suite || client.Check() != chk || client.PublicKey() != key || client.Kappa() != 0 {
				t.Fatal("configuration")
			}
			fin := must(client.Blind(in))
			request := fin.Request()
			if len(request) != client.RequestLen(len(in))*suite.ElementLen() {
				t.Fatalf("request length %d", len(request))
			}
			response, _ := server.Evaluate(request)
			got, err := fin.Finalize(response)
			if err != nil {
				t.Fatalf("%v %v: %v", suite, chk, err)
			}
			for i := range got {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("%v %v: output %d differs from the plain OPRF", suite, chk, i)
				}
			}
			// A cheater: the last element evaluated with another key.
			other := must(GenerateOPRFServer(suite))
			fin = must(client.Blind(in))
			request = fin.Request()
			response, _ = server.Evaluate(request)
			w := suite.ElementLen()
			last, _ := other.Evaluate(request[len(request)-w:])
			copy(response[len(response)-w:], last)
			if _, err := fin.Finalize(response[1:]); !errors.Is(err, ErrBadLength) {
				t.Fatalf("%v %v: short response: %v", suite, chk, err)
			}
			if _, err := fin.Finalize(response); !errors.Is(err, ErrVerificationFailed) {
				t.Fatalf("%v %v: cheater passed: %v", suite, chk, err)
			}
			if _, err := fin.Finalize(response); !errors.Is(err, ErrBatchUsed) {
				t.Fatalf("%v %v: after a failed check: %v", suite, chk, err)
			}
			other.Close()
		}
		server.Close()
	}
}

// The key-free check pads small batches; kappa sets the padding.
func TestCheckedRequestLen(t *testing.T) {
	key := must(GenerateOPRFServer(SuiteRistretto255))
	defer key.Close()
	committed := must(NewCheckedClient(SuiteRistretto255, CheckCommittedKey, key.PublicKey(), 0))
	keyFree := must(NewCheckedClient(SuiteRistretto255, CheckKeyFree, nil, 128))
	if committed.RequestLen(1) != 2 || keyFree.RequestLen(1) != 3 || committed.RequestLen(0) != 0 || committed.RequestLen(-1) != 0 {
		t.Fatalf("request lengths %d %d", committed.RequestLen(1), keyFree.RequestLen(1))
	}
	if committed.RequestLen(70000) != 0 {
		t.Fatal("oversized request")
	}
	if _, err := committed.Blind(inputs(70000)); !errors.Is(err, ErrBadLength) {
		t.Fatalf("oversized batch: %v", err)
	}
}

func TestCheckedOPRFErrors(t *testing.T) {
	server := must(GenerateOPRFServer(SuiteRistretto255))
	defer server.Close()
	pk := server.PublicKey()
	if _, err := NewCheckedClient(SuiteRistretto255, CheckCommittedKey, pk, 7); !errors.Is(err, ErrInvalidKappa) {
		t.Fatalf("kappa: %v", err)
	}
	if _, err := NewCheckedClient(SuiteRistretto255, CheckCommittedKey, pk, KappaMax+1); !errors.Is(err, ErrInvalidKappa) {
		t.Fatalf("kappa: %v", err)
	}
	if _, err := NewCheckedClient(SuiteRistretto255, Check(9), nil, 0); !errors.Is(err, ErrUnknownCheck) {
		t.Fatalf("check: %v", err)
	}
	if _, err := NewCheckedClient(Suite(99), CheckKeyFree, nil, 0); !errors.Is(err, ErrUnknownSuite) {
		t.Fatalf("suite: %v", err)
	}
	if _, err := NewCheckedClient(SuiteRistretto255, CheckCommittedKey, nil, 0); !errors.Is(err, ErrMissingPublicKey) {
		t.Fatalf("no key: %v", err)
	}
	if _, err := NewCheckedClient(SuiteRistretto255, CheckKeyFree, pk, 0); !errors.Is(err, ErrBadLength) {
		t.Fatalf("key with the key-free check: %v", err)
	}
	if _, err := NewCheckedClient(SuiteP256, CheckCommittedKey, pk, 0); !errors.Is(err, ErrSuiteMismatch) {
		t.Fatalf("key of another suite: %v", err)
	}
	client := must(NewCheckedClient(SuiteRistretto255, CheckCommittedKey, pk, KappaMin))
	if _, err := client.Blind(nil); !errors.Is(err, ErrEmptyInput) {
		t.Fatalf("no input: %v", err)
	}
	// The committed key is bound at blind time: a server with another key
	// is caught even though it answers consistently.
	other := must(GenerateOPRFServer(SuiteRistretto255))
	defer other.Close()
	fin := must(client.Blind(inputs(3)))
	response, _ := other.Evaluate(fin.Request())
	if _, err := fin.Finalize(response); !errors.Is(err, ErrVerificationFailed) {
		t.Fatalf("another key: %v", err)
	}
	// A malformed response leaves the batch usable.
	fin = must(client.Blind(inputs(3)))
	bad := append([]byte(nil), fin.Request()...)
	for i := range bad[:32] {
		bad[i] = 0
	}
	if _, err := fin.Finalize(bad); !errors.Is(err, ErrInvalidElement) {
		t.Fatalf("identity in the response: %v", err)
	}
	response, _ = server.Evaluate(fin.Request())
	if _, err := fin.Finalize(response); err != nil {
		t.Fatalf("after a malformed response: %v", err)
	}
}
