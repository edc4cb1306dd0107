// Package keyservice is the HTTP protocol shared by oblivex-keyserver and
// oblivex-keyclient (docs/DEPLOYMENT.md): the paths, headers and framing
// the library leaves to its caller (docs/PROTOCOLS.md §7), and the client
// side of one call to one server.
//
// A request body is the library's wire request (concatenated element
// encodings, application/octet-stream). What the library does not frame
// travels beside it: the suite and the protocol in the path, a POPRF info
// in the Oblivex-Info header (hex), a threshold quorum in the quorum query
// parameter (comma-separated party ids). A VOPRF or POPRF answer is the
// evaluated elements followed by the proof (Suite.ProofLen bytes).
package keyservice

import (
	"encoding/hex"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	oblivex "github.com/oblivex/oblivex/bindings/go"
)

// Protocol is what an evaluate endpoint runs with the server's key.
type Protocol string

// The evaluate endpoints' protocols.
const (
	// OPRF is RFC 9497's OPRF mode, also what a checked batch sends.
	OPRF Protocol = "oprf"
	// VOPRF answers with a proof.
	VOPRF Protocol = "voprf"
	// POPRF answers with a proof under the key tweaked by the info.
	POPRF Protocol = "poprf"
	// Threshold is a key share's evaluation: threshold OPRF, blind BLS.
	Threshold Protocol = "threshold"
)

// Paths and headers of the service.
const (
	// Version is the first segment of every keyed path.
	Version = "v1"
	// HealthPath answers 200 while the server accepts requests.
	HealthPath = "/healthz"
	// MetricsPath serves the expvar counters (authenticated).
	MetricsPath = "/metrics"
	// PublicKeyEndpoint is the last segment of the public key's path.
	PublicKeyEndpoint = "public-key"
	// CommitmentsEndpoint is the last segment of the commitments' (or BLS
	// key set's) path.
	CommitmentsEndpoint = "commitments"
	// EvaluatePrefix starts every evaluate endpoint's last segment.
	EvaluatePrefix = "evaluate-"
	// InfoHeader carries a POPRF info, hex-encoded.
	InfoHeader = "Oblivex-Info"
	// PartyHeader carries the answering server's party id (threshold).
	PartyHeader = "Oblivex-Party"
	// QuorumParam is the query parameter of a threshold quorum.
	QuorumParam = "quorum"
	// ContentType is the type of every request and response body.
	ContentType = "application/octet-stream"
)

// SuiteByName maps a suite's identifier (Suite.String, e.g.
// "ristretto255-SHA512") to the suite; case-insensitive.
func SuiteByName(name string) (oblivex.Suite, error) {
	for _, s := range oblivex.Suites() {
		if strings.EqualFold(s.String(), name) {
			return s, nil
		}
	}
	return 0, fmt.Errorf("unknown suite %q (one of %v)", name, oblivex.Suites())
}

// EvaluatePath is the path of suite's evaluate endpoint for protocol.
func EvaluatePath(suite oblivex.Suite, protocol Protocol) string {
	return "/" + Version + "/" + suite.String() + "/" + EvaluatePrefix + string(protocol)
}

// KeyPath is the path of suite's public key or commitments endpoint.
func KeyPath(suite oblivex.Suite, endpoint string) string {
	return "/" + Version + "/" + suite.String() + "/" + endpoint
}

// EncodeQuorum is a quorum's query value ("" for none).
func EncodeQuorum(quorum []uint16) string {
	parts := make([]string, len(quorum))
	for i, id := range quorum {
		parts[i] = strconv.Itoa(int(id))
	}
	return strings.Join(parts, ",")
}

// DecodeQuorum parses a quorum's query value (nil for an empty one); the
// library checks the ids themselves.
func DecodeQuorum(value string) ([]uint16, error) {
	if value == "" {
		return nil, nil
	}
	parts := strings.Split(value, ",")
	if len(parts) > oblivex.MaxParties {
		return nil, fmt.Errorf("quorum of %d ids", len(parts))
	}
	quorum := make([]uint16, len(parts))
	for i, p := range parts {
		id, err := strconv.ParseUint(p, 10, 16)
		if err != nil {
			return nil, fmt.Errorf("quorum id %q: %w", p, err)
		}
		quorum[i] = uint16(id)
	}
	return quorum, nil
}

// DecodeInfo parses a POPRF info header (hex; at most MaxInputLen bytes).
func DecodeInfo(value string) ([]byte, error) {
	if len(value) > 2*oblivex.MaxInputLen {
		return nil, fmt.Errorf("info longer than %d bytes", oblivex.MaxInputLen)
	}
	return hex.DecodeString(value)
}

// evaluateURL is base's evaluate endpoint for suite and protocol, with the
// quorum if there is one.
func evaluateURL(base string, suite oblivex.Suite, protocol Protocol, quorum []uint16) string {
	u := strings.TrimRight(base, "/") + EvaluatePath(suite, protocol)
	if len(quorum) > 0 {
		u += "?" + QuorumParam + "=" + url.QueryEscape(EncodeQuorum(quorum))
	}
	return u
}
