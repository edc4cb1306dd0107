package oblivex

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"testing"
)

type rfcVector struct {
	Suite              string   `json:"suite"`
	Mode               string   `json:"mode"`
	RFCSection         string   `json:"rfcSection"`
	Seed               string   `json:"seed"`
	KeyInfo            string   `json:"keyInfo"`
	SkSm               string   `json:"skSm"`
	PkSm               *string  `json:"pkSm"`
	Info               *string  `json:"info"`
	Inputs             []string `json:"inputs"`
	BlindedElements    []string `json:"blindedElements"`
	EvaluationElements []string `json:"evaluationElements"`
	Outputs            []string `json:"outputs"`
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The RFC 9497 vectors (the repository's copy), through Go: the derived
// key, the server's evaluation of the vector's blinded elements, and the
// outputs of a full blind/evaluate/finalize round (fresh blinds: outputs
// do not depend on them).
func TestRFC9497Vectors(t *testing.T) {
	raw, err := os.ReadFile("../../tests/vectors/rfc9497.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Vectors []rfcVector `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) < 12 {
		t.Fatalf("only %d vectors", len(file.Vectors))
	}
	suites := map[string]Suite{"ristretto255-SHA512": Ristretto255SHA512, "P256-SHA256": P256SHA256}
	modes := map[string]Mode{"OPRF": ModeOPRF, "VOPRF": ModeVOPRF, "POPRF": ModePOPRF}
	for _, v := range file.Vectors {
		suite, mode := suites[v.Suite], modes[v.Mode]
		server, err := DeriveServer(suite, mode, unhex(t, v.Seed), unhex(t, v.KeyInfo))
		if err != nil {
			t.Fatal(err)
		}
		sk, _ := server.SecretKey()
		if !bytes.Equal(sk, unhex(t, v.SkSm)) {
			t.Fatalf("%s: derived key differs", v.RFCSection)
		}
		pk, _ := server.PublicKey()
		if v.PkSm != nil && !bytes.Equal(pk, unhex(t, *v.PkSm)) {
			t.Fatalf("%s: public key differs", v.RFCSection)
		}
		var info []byte
		if v.Info != nil {
			info = unhex(t, *v.Info)
		}
		var blinded, wantEval []byte
		for i := range v.Inputs {
			blinded = append(blinded, unhex(t, v.BlindedElements[i])...)
			wantEval = append(wantEval, unhex(t, v.EvaluationElements[i])...)
		}
		evaluated, _, err := server.BlindEvaluate(blinded, info)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(evaluated, wantEval) {
			t.Fatalf("%s: evaluation differs", v.RFCSection)
		}
		inputs := make([][]byte, len(v.Inputs))
		for i := range inputs {
			inputs[i] = unhex(t, v.Inputs[i])
		}
		client := &Client{Suite: suite, Mode: mode}
		if mode != ModeOPRF {
			client.PublicKey = pk
		}
		state, request, err := client.Blind(inputs, info)
		if err != nil {
			t.Fatal(err)
		}
		evaluated, proof, err := server.BlindEvaluate(request, info)
		if err != nil {
			t.Fatal(err)
		}
		outputs, err := client.Finalize(state, evaluated, proof)
		if err != nil {
			t.Fatalf("%s: finalize: %v", v.RFCSection, err)
		}
		for i := range outputs {
			if !bytes.Equal(outputs[i], unhex(t, v.Outputs[i])) {
				t.Fatalf("%s: output %d differs", v.RFCSection, i)
			}
		}
		if _, err := client.Finalize(state, evaluated, proof); !errors.Is(err, ErrClosed) {
			t.Fatalf("finalize twice: %v", err)
		}
		server.Close()
	}
}

func TestVOPRFRejectsAWrongProof(t *testing.T) {
	server, err := GenerateServer(P256SHA256, ModeVOPRF)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	pk, _ := server.PublicKey()
	client := &Client{Suite: P256SHA256, Mode: ModeVOPRF, PublicKey: pk}
	state, request, err := client.Blind([][]byte{[]byte("a"), []byte("b")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	evaluated, proof, err := server.BlindEvaluate(request, nil)
	if err != nil {
		t.Fatal(err)
	}
	proof[len(proof)-1] ^= 1
	if _, err := client.Finalize(state, evaluated, proof); !errors.Is(err, ErrVerificationFailed) && !errors.Is(err, ErrInvalidScalar) {
		t.Fatalf("bad proof: %v", err)
	}
}

func TestOPRFErrors(t *testing.T) {
	if _, err := NewServer(Suite(99), ModeOPRF, make([]byte, 32)); !errors.Is(err, ErrUnknownSuite) {
		t.Fatalf("suite: %v", err)
	}
	if _, err := NewServer(Ristretto255SHA512, Mode(7), make([]byte, 32)); !errors.Is(err, ErrUnknownMode) {
		t.Fatalf("mode: %v", err)
	}
	if _, err := NewServer(Ristretto255SHA512, ModeOPRF, make([]byte, 32)); !errors.Is(err, ErrInvalidScalar) {
		t.Fatalf("zero key: %v", err)
	}
	server, _ := GenerateServer(Ristretto255SHA512, ModeOPRF)
	defer server.Close()
	if _, err := server.Evaluate(make([]byte, 31)); !errors.Is(err, ErrBadLength) {
		t.Fatalf("short element: %v", err)
	}
	if _, err := server.Evaluate(make([]byte, 32)); !errors.Is(err, ErrInvalidElement) {
		t.Fatalf("identity: %v", err)
	}
	client := &Client{Suite: Ristretto255SHA512, Mode: ModeOPRF}
	if _, _, err := client.Blind(nil, nil); !errors.Is(err, ErrEmptyInput) && !errors.Is(err, ErrNullPointer) {
		t.Fatalf("no input: %v", err)
	}
	// Every sentinel is distinct and named.
	seen := map[string]bool{}
	for _, e := range allErrors {
		if seen[e.Error()] {
			t.Fatalf("duplicate message %q", e.Error())
		}
		seen[e.Error()] = true
	}
}
