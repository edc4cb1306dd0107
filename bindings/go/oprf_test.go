package oblivex

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
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

func inputs(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = []byte(fmt.Sprintf("input %d", i))
	}
	return out
}

// must returns v, or panics (failing the test) on an error: for the
// setup steps the tests do not examine.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// oprfServer is what the three server types have in common, for the
// tests that run every mode.
type oprfServer interface {
	Suite() Suite
	Mode() Mode
	PublicKey() *PublicKey
	SecretKey() ([]byte, error)
	Close() error
}

// oprfBatch is a batch of any mode with its Finalize given the answer and
// proof (the proof ignored in OPRF mode).
type oprfBatch struct {
	Request  func() []byte
	Close    func() error
	Finalize func(evaluated, proof []byte) ([][]byte, error)
}

// modeAPI is one mode's typed API behind one shape, for the tests that run
// every mode: each field calls that mode's own constructor or method.
type modeAPI struct {
	derive   func(suite Suite, seed, keyInfo []byte) (oprfServer, error)
	parse    func(suite Suite, secretKey []byte) (oprfServer, error)
	evaluate func(server oprfServer, blinded, info []byte) (evaluated, proof []byte, err error)
	blind    func(suite Suite, publicKey *PublicKey, inputs [][]byte, info []byte) (oprfBatch, error)
}

// server wraps a typed constructor's result (a nil *T stays a nil
// interface).
func server[T oprfServer](s T, err error) (oprfServer, error) {
	if err != nil {
		return nil, err
	}
	return s, nil
}

var modeAPIs = map[Mode]modeAPI{
	ModeOPRF: {
		derive: func(suite Suite, seed, keyInfo []byte) (oprfServer, error) {
			return server(DeriveOPRFServer(suite, seed, keyInfo))
		},
		parse: func(suite Suite, sk []byte) (oprfServer, error) { return server(NewOPRFServer(suite, sk)) },
		evaluate: func(s oprfServer, blinded, _ []byte) ([]byte, []byte, error) {
			evaluated, err := s.(*OPRFServer).Evaluate(blinded)
			return evaluated, nil, err
		},
		blind: func(suite Suite, _ *PublicKey, inputs [][]byte, _ []byte) (oprfBatch, error) {
			b, err := must(NewOPRFClient(suite)).Blind(inputs)
			if err != nil {
				return oprfBatch{}, err
			}
			finalize := func(evaluated, _ []byte) ([][]byte, error) { return b.Finalize(evaluated) }
			return oprfBatch{b.Request, b.Close, finalize}, nil
		},
	},
	ModeVOPRF: {
		derive: func(suite Suite, seed, keyInfo []byte) (oprfServer, error) {
			return server(DeriveVOPRFServer(suite, seed, keyInfo))
		},
		parse: func(suite Suite, sk []byte) (oprfServer, error) { return server(NewVOPRFServer(suite, sk)) },
		evaluate: func(s oprfServer, blinded, _ []byte) ([]byte, []byte, error) {
			return s.(*VOPRFServer).Evaluate(blinded)
		},
		blind: func(_ Suite, key *PublicKey, inputs [][]byte, _ []byte) (oprfBatch, error) {
			b, err := must(NewVOPRFClient(key)).Blind(inputs)
			if err != nil {
				return oprfBatch{}, err
			}
			return oprfBatch{b.Request, b.Close, b.Finalize}, nil
		},
	},
	ModePOPRF: {
		derive: func(suite Suite, seed, keyInfo []byte) (oprfServer, error) {
			return server(DerivePOPRFServer(suite, seed, keyInfo))
		},
		parse: func(suite Suite, sk []byte) (oprfServer, error) { return server(NewPOPRFServer(suite, sk)) },
		evaluate: func(s oprfServer, blinded, info []byte) ([]byte, []byte, error) {
			return s.(*POPRFServer).Evaluate(blinded, info)
		},
		blind: func(_ Suite, key *PublicKey, inputs [][]byte, info []byte) (oprfBatch, error) {
			b, err := must(NewPOPRFClient(key)).Blind(inputs, info)
			if err != nil {
				return oprfBatch{}, err
			}
			return oprfBatch{b.Request, b.Close, b.Finalize}, nil
		},
	},
}

// The RFC 9497 vectors (the repository's copy), through Go: the derived
// key, the server's evaluation of the vector's blinded elements, and the
// outputs of a full blind/evaluate/finalize round (fresh blinds: outputs
// do not depend on them), each mode through its own types.
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
	suites := map[string]Suite{"ristretto255-SHA512": SuiteRistretto255, "P256-SHA256": SuiteP256}
	modes := map[string]Mode{"OPRF": ModeOPRF, "VOPRF": ModeVOPRF, "POPRF": ModePOPRF}
	for _, v := range file.Vectors {
		suite, ok := suites[v.Suite]
		mode, ok2 := modes[v.Mode]
		if !ok || !ok2 || suite.String() != v.Suite || mode.String() != v.Mode {
			t.Fatalf("%s: unknown suite or mode %s %s", v.RFCSection, v.Suite, v.Mode)
		}
		api := modeAPIs[mode]
		server := must(api.derive(suite, unhex(t, v.Seed), unhex(t, v.KeyInfo)))
		if server.Suite() != suite || server.Mode() != mode {
			t.Fatalf("%s: server of %v %v", v.RFCSection, server.Suite(), server.Mode())
		}
		sk := must(server.SecretKey())
		if !bytes.Equal(sk, unhex(t, v.SkSm)) {
			t.Fatalf("%s: derived key differs", v.RFCSection)
		}
		pk := server.PublicKey()
		if v.PkSm != nil && !bytes.Equal(pk.Bytes(), unhex(t, *v.PkSm)) {
			t.Fatalf("%s: public key differs", v.RFCSection)
		}
		if again := must(api.parse(suite, sk)); !again.PublicKey().Equal(pk) {
			t.Fatalf("%s: the stored key gives another public key", v.RFCSection)
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
		evaluated, proof, err := api.evaluate(server, blinded, info)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(evaluated, wantEval) {
			t.Fatalf("%s: evaluation differs", v.RFCSection)
		}
		if (mode == ModeOPRF) != (proof == nil) || (proof != nil && len(proof) != suite.ProofLen()) {
			t.Fatalf("%s: proof of %d bytes", v.RFCSection, len(proof))
		}
		in := make([][]byte, len(v.Inputs))
		for i := range in {
			in[i] = unhex(t, v.Inputs[i])
		}
		key := must(ParsePublicKey(suite, pk.Bytes()))
		batch := must(api.blind(suite, key, in, info))
		evaluated, proof, err = api.evaluate(server, batch.Request(), info)
		if err != nil {
			t.Fatal(err)
		}
		outputs, err := batch.Finalize(evaluated, proof)
		if err != nil {
			t.Fatalf("%s: finalize: %v", v.RFCSection, err)
		}
		for i := range outputs {
			if !bytes.Equal(outputs[i], unhex(t, v.Outputs[i])) {
				t.Fatalf("%s: output %d differs", v.RFCSection, i)
			}
		}
		if _, err := batch.Finalize(evaluated, proof); !errors.Is(err, ErrBatchUsed) {
			t.Fatalf("finalize twice: %v", err)
		}
		if err := batch.Close(); err != nil {
			t.Fatal(err)
		}
		if err := server.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := server.SecretKey(); !errors.Is(err, ErrClosed) {
			t.Fatalf("closed server: %v", err)
		}
	}
}

// VOPRF: a tampered proof or answer is caught and spends the batch; a
// missing or malformed proof is refused and leaves it usable.
func TestVOPRFProof(t *testing.T) {
	for _, suite := range []Suite{SuiteP256, SuiteRistretto255, SuiteFFDHE2048} {
		server := must(GenerateVOPRFServer(suite))
		defer server.Close()
		client := must(NewVOPRFClient(server.PublicKey()))
		batch := must(client.Blind(inputs(2)))
		evaluated, proof, err := server.Evaluate(batch.Request())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := batch.Finalize(evaluated, nil); !errors.Is(err, ErrMissingProof) {
			t.Fatalf("%v: no proof: %v", suite, err)
		}
		if _, err := batch.Finalize(evaluated, proof[1:]); !errors.Is(err, ErrBadLength) {
			t.Fatalf("%v: short proof: %v", suite, err)
		}
		if _, err := batch.Finalize(evaluated[1:], proof); !errors.Is(err, ErrBadLength) {
			t.Fatalf("%v: short answer: %v", suite, err)
		}
		// Another server's answer with its own valid proof.
		other := must(GenerateVOPRFServer(suite))
		otherEvaluated, otherProof, _ := other.Evaluate(batch.Request())
		other.Close()
		if _, err := batch.Finalize(otherEvaluated, otherProof); !errors.Is(err, ErrVerificationFailed) {
			t.Fatalf("%v: another key: %v", suite, err)
		}
		if _, err := batch.Finalize(evaluated, proof); !errors.Is(err, ErrBatchUsed) {
			t.Fatalf("%v: after a failed check: %v", suite, err)
		}
	}
}

// POPRF: the info tweaks the key; client and server must agree on it.
func TestPOPRFInfo(t *testing.T) {
	server := must(GeneratePOPRFServer(SuiteRistretto255))
	defer server.Close()
	client := must(NewPOPRFClient(server.PublicKey()))
	run := func(clientInfo, serverInfo []byte) ([][]byte, error) {
		batch := must(client.Blind(inputs(3), clientInfo))
		defer batch.Close()
		evaluated, proof, err := server.Evaluate(batch.Request(), serverInfo)
		if err != nil {
			t.Fatal(err)
		}
		return batch.Finalize(evaluated, proof)
	}
	a := must(run([]byte("a"), []byte("a")))
	b := must(run([]byte("b"), []byte("b")))
	if bytes.Equal(a[0], b[0]) {
		t.Fatal("the info does not change the output")
	}
	if _, err := run([]byte("a"), []byte("b")); !errors.Is(err, ErrVerificationFailed) {
		t.Fatalf("info mismatch: %v", err)
	}
	empty := must(run(nil, []byte{}))
	if bytes.Equal(empty[0], a[0]) {
		t.Fatal("an empty info gives the output of another")
	}
	if _, err := client.Blind(inputs(1), make([]byte, MaxInputLen+1)); !errors.Is(err, ErrBadLength) {
		t.Fatalf("long client info: %v", err)
	}
	batch := must(client.Blind(inputs(1), nil))
	defer batch.Close()
	if _, _, err := server.Evaluate(batch.Request(), make([]byte, MaxInputLen+1)); !errors.Is(err, ErrBadLength) {
		t.Fatalf("long server info: %v", err)
	}
}

func TestPublicKey(t *testing.T) {
	for _, suite := range Suites() {
		server := must(GenerateOPRFServer(suite))
		pk := server.PublicKey()
		server.Close()
		if pk.Suite() != suite || len(pk.Bytes()) != suite.ElementLen() {
			t.Fatalf("%v: public key of %d bytes", suite, len(pk.Bytes()))
		}
		parsed := must(ParsePublicKey(suite, pk.Bytes()))
		if !parsed.Equal(pk) {
			t.Fatalf("%v: parsed key differs", suite)
		}
		if _, err := ParsePublicKey(suite, pk.Bytes()[1:]); !errors.Is(err, ErrBadLength) {
			t.Fatalf("%v: short key: %v", suite, err)
		}
		if _, err := ParsePublicKey(suite, append(pk.Bytes(), pk.Bytes()...)); !errors.Is(err, ErrBadLength) {
			t.Fatalf("%v: two keys: %v", suite, err)
		}
		garbage := bytes.Repeat([]byte{0xff}, suite.ElementLen())
		if _, err := ParsePublicKey(suite, garbage); !errors.Is(err, ErrInvalidElement) {
			t.Fatalf("%v: all-ones key: %v", suite, err)
		}
	}
	if _, err := ParsePublicKey(SuiteRistretto255, make([]byte, 32)); !errors.Is(err, ErrInvalidElement) {
		t.Fatalf("identity: %v", err)
	}
	if _, err := ParsePublicKey(Suite(99), make([]byte, 32)); !errors.Is(err, ErrUnknownSuite) {
		t.Fatalf("unknown suite: %v", err)
	}
	a := must(GenerateOPRFServer(SuiteRistretto255))
	defer a.Close()
	if a.PublicKey().Equal(nil) || !(*PublicKey)(nil).Equal(nil) {
		t.Fatal("Equal with nil")
	}
	mutated := a.PublicKey().Bytes()
	mutated[0] ^= 1
	if bytes.Equal(a.PublicKey().Bytes(), mutated) {
		t.Fatal("Bytes is not a copy")
	}
}

func TestOPRFErrors(t *testing.T) {
	for mode, api := range modeAPIs {
		if _, err := api.parse(Suite(99), make([]byte, 32)); !errors.Is(err, ErrUnknownSuite) {
			t.Fatalf("%v: suite: %v", mode, err)
		}
		if _, err := api.parse(SuiteRistretto255, make([]byte, 32)); !errors.Is(err, ErrInvalidScalar) {
			t.Fatalf("%v: zero key: %v", mode, err)
		}
		if _, err := api.parse(SuiteRistretto255, nil); !errors.Is(err, ErrInvalidScalar) {
			t.Fatalf("%v: no key: %v", mode, err)
		}
		if _, err := api.derive(SuiteP256, []byte("seed"), make([]byte, MaxInputLen+1)); !errors.Is(err, ErrBadLength) {
			t.Fatalf("%v: long info: %v", mode, err)
		}
		server := must(api.derive(SuiteRistretto255, []byte("seed"), nil))
		if server.Suite() != SuiteRistretto255 || server.Mode() != mode {
			t.Fatalf("%v: suite or mode", mode)
		}
		if _, _, err := api.evaluate(server, make([]byte, 31), nil); !errors.Is(err, ErrBadLength) {
			t.Fatalf("%v: short element: %v", mode, err)
		}
		if _, _, err := api.evaluate(server, nil, nil); !errors.Is(err, ErrBadLength) && !errors.Is(err, ErrEmptyInput) {
			t.Fatalf("%v: empty request: %v", mode, err)
		}
		if _, _, err := api.evaluate(server, make([]byte, 32), nil); !errors.Is(err, ErrInvalidElement) {
			t.Fatalf("%v: identity: %v", mode, err)
		}
		if _, err := api.blind(SuiteRistretto255, server.PublicKey(), nil, nil); !errors.Is(err, ErrEmptyInput) {
			t.Fatalf("%v: no input: %v", mode, err)
		}
		if _, err := api.blind(SuiteRistretto255, server.PublicKey(), [][]byte{make([]byte, MaxInputLen+1)}, nil); !errors.Is(err, ErrBadLength) {
			t.Fatalf("%v: long input: %v", mode, err)
		}
		// An empty input is an input.
		batch := must(api.blind(SuiteRistretto255, server.PublicKey(), [][]byte{nil, {}}, nil))
		evaluated, proof, _ := api.evaluate(server, batch.Request(), nil)
		outputs := must(batch.Finalize(evaluated, proof))
		if len(outputs) != 2 || !bytes.Equal(outputs[0], outputs[1]) || len(outputs[0]) != SuiteRistretto255.OutputLen() {
			t.Fatalf("%v: empty inputs", mode)
		}
		// Close before finalizing.
		batch = must(api.blind(SuiteRistretto255, server.PublicKey(), inputs(1), nil))
		batch.Close()
		batch.Close()
		if _, err := batch.Finalize(evaluated[:32], proof); !errors.Is(err, ErrClosed) {
			t.Fatalf("%v: closed batch: %v", mode, err)
		}
		server.Close()
	}

	// Client configuration, checked at construction.
	if _, err := NewOPRFClient(Suite(99)); !errors.Is(err, ErrUnknownSuite) {
		t.Fatalf("client suite: %v", err)
	}
	if _, err := NewVOPRFClient(nil); !errors.Is(err, ErrMissingPublicKey) {
		t.Fatalf("VOPRF without a key: %v", err)
	}
	if _, err := NewPOPRFClient(nil); !errors.Is(err, ErrMissingPublicKey) {
		t.Fatalf("POPRF without a key: %v", err)
	}
	server := must(GenerateVOPRFServer(SuiteP256))
	defer server.Close()
	plain := must(NewOPRFClient(SuiteP256))
	voprf := must(NewVOPRFClient(server.PublicKey()))
	poprf := must(NewPOPRFClient(server.PublicKey()))
	if plain.Suite() != SuiteP256 || plain.Mode() != ModeOPRF || voprf.Suite() != SuiteP256 || voprf.Mode() != ModeVOPRF ||
		!voprf.PublicKey().Equal(server.PublicKey()) || poprf.Suite() != SuiteP256 || poprf.Mode() != ModePOPRF {
		t.Fatal("client configuration")
	}
}

// Every sentinel is distinct and named after its status; unknown values
// print their names.
func TestErrorsAndNames(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range append(statusErrors, ErrClosed) {
		if seen[e.Error()] || e.Error() == "oblivex: unknown status code" {
			t.Fatalf("message %q", e.Error())
		}
		seen[e.Error()] = true
	}
	if check(7).Error() != "oblivex: the output buffer is too small (status 7)" {
		t.Fatalf("unmapped status: %v", check(7))
	}
	if Suite(99).String() != "Suite(99)" || Mode(7).String() != "Mode(7)" || Check(9).String() != "Check(9)" ||
		ElGamalTarget(5).String() != "ElGamalTarget(5)" || CheckKeyFree.String() != "KeyFree" ||
		ElGamalKEMSecrets.String() != "KEMSecrets" {
		t.Fatal("names")
	}
	if Suite(99).ElementLen() != 0 || SuiteP256.ElementLen() != 33 || SuiteP256.ScalarLen() != 32 || SuiteP256.OutputLen() != 32 ||
		SuiteP256.ProofLen() != 64 {
		t.Fatal("sizes")
	}
	if Version() != "0.2.0" {
		t.Fatalf("version %s", Version())
	}
	if name := BackendName(); name != "portable" && name != "mulx" && name != "avx2" && name != "ifma" && name != "unsupported" {
		t.Fatalf("backend %q", name)
	}
	SetThreads(2)
	if Threads() != 2 {
		t.Fatal("threads")
	}
	SetThreads(-1)
	if Threads() < 1 {
		t.Fatal("default threads")
	}
}
