package keyservice

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	oblivex "github.com/oblivex/oblivex/bindings/go"
)

// A malicious or broken server's answer longer than the call allows is
// refused (ErrAnswerTooLong) without the client reading much past the
// longest answer it expects: one byte too many, an announced length, and
// a long body of no announced length.
func TestClientRefusesAnswersLongerThanExpected(t *testing.T) {
	suite := oblivex.SuiteRistretto255
	request := make([]byte, 4*suite.ElementLen())
	var answer func(w http.ResponseWriter)
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		answer(w)
	}))
	defer server.Close()
	client := &Client{Base: server.URL}
	cases := []struct {
		name   string
		answer func(w http.ResponseWriter)
	}{
		{"one byte too many", func(w http.ResponseWriter) { w.Write(make([]byte, len(request)+1)) }},
		{"announced 1 GiB", func(w http.ResponseWriter) {
			w.Header().Set("Content-Length", "1073741824")
			w.Write(make([]byte, 4096))
		}},
		{"128 MiB, unannounced", func(w http.ResponseWriter) {
			buffer := make([]byte, 32<<10)
			for i := 0; i < 1<<12; i++ {
				if _, err := w.Write(buffer); err != nil {
					return // the client hung up
				}
			}
		}},
	}
	for _, c := range cases {
		answer = c.answer
		_, err := client.Evaluate(context.Background(), suite, OPRF, request, nil, nil)
		if !errors.Is(err, ErrAnswerTooLong) {
			t.Errorf("%s: got %v, want ErrAnswerTooLong", c.name, err)
		}
		if _, err := client.PublicKey(context.Background(), suite); !errors.Is(err, ErrAnswerTooLong) {
			t.Errorf("%s, public key: got %v, want ErrAnswerTooLong", c.name, err)
		}
	}
	answer = func(w http.ResponseWriter) { w.Write(make([]byte, maxCommitmentsLen(suite)+1)) }
	if _, err := client.Commitments(context.Background(), suite); !errors.Is(err, ErrAnswerTooLong) {
		t.Errorf("commitments: got %v, want ErrAnswerTooLong", err)
	}
	// An answer of the expected length still arrives.
	answer = func(w http.ResponseWriter) { w.Write(make([]byte, len(request))) }
	if body, err := client.Evaluate(context.Background(), suite, OPRF, request, nil, nil); err != nil || len(body) != len(request) {
		t.Errorf("an answer of the right length: %d bytes, %v", len(body), err)
	}
}
