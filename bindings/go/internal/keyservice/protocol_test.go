package keyservice

import (
	"reflect"
	"testing"

	oblivex "github.com/oblivex/oblivex/bindings/go"
)

func TestQuorumEncoding(t *testing.T) {
	for _, q := range [][]uint16{nil, {1}, {1, 3, 65535}} {
		got, err := DecodeQuorum(EncodeQuorum(q))
		if err != nil || !reflect.DeepEqual(got, q) {
			t.Errorf("%v: decoded %v, %v", q, got, err)
		}
	}
	for _, bad := range []string{"1,,2", "x", "65536", "-1", "1;2"} {
		if _, err := DecodeQuorum(bad); err == nil {
			t.Errorf("quorum %q accepted", bad)
		}
	}
}

func TestSuiteNames(t *testing.T) {
	for _, s := range oblivex.Suites() {
		if got, err := SuiteByName(s.String()); err != nil || got != s {
			t.Errorf("%v: %v, %v", s, got, err)
		}
	}
	if got, _ := SuiteByName("RISTRETTO255-sha512"); got != oblivex.SuiteRistretto255 {
		t.Error("names are case-insensitive")
	}
	if _, err := SuiteByName("ristretto"); err == nil {
		t.Error("an unknown name accepted")
	}
	if p := EvaluatePath(oblivex.SuiteP256, Threshold); p != "/v1/P256-SHA256/evaluate-threshold" {
		t.Errorf("path %s", p)
	}
	if _, err := DecodeInfo("zz"); err == nil {
		t.Error("info not hex accepted")
	}
}
