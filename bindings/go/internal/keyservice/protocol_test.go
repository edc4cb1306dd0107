package keyservice

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"testing"
	"time"

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

// A response frame's Retry-After is whole seconds rounded up, clamped to
// its 16-bit field: 30 hours is 65,535 seconds, not 30 h mod 2^16 s.
func TestRetryAfterIsClamped(t *testing.T) {
	for _, c := range []struct {
		wait time.Duration
		want uint16
	}{
		{0, 0},
		{-time.Second, 0},
		{time.Millisecond, 1},
		{90 * time.Second, 90},
		{65535 * time.Second, 65535},
		{65536 * time.Second, 65535},
		{30 * time.Hour, 65535},
	} {
		var frame bytes.Buffer
		if err := WriteResponseFrame(&frame, 429, c.wait, nil); err != nil {
			t.Fatal(err)
		}
		if got := binary.BigEndian.Uint16(frame.Bytes()[2:]); got != c.want {
			t.Errorf("wait %v: Retry-After %d, want %d", c.wait, got, c.want)
		}
	}
}
