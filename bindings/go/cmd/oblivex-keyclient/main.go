// Command oblivex-keyclient is the client of oblivex-keyserver
// (docs/DEPLOYMENT.md): key ceremonies, the checked batch OPRF against
// one server, the threshold OPRF and threshold blind BLS against m
// servers, and a benchmark.
//
//	oblivex-keyclient keygen    -suite S -out FILE
//	oblivex-keyclient deal      -suite S -t T -m M -out DIR [-bls]
//	oblivex-keyclient checked   -server URL -suite S -public-key FILE
//	oblivex-keyclient threshold -suite S -servers 1=URL,2=URL,... -public COMMITMENTS
//	oblivex-keyclient bls       -servers 1=URL,2=URL,... -public KEYSET
//	oblivex-keyclient bench     -server URL -suite S -concurrency C -duration D -batch N [-stream]
//
// Inputs are the lines of -in (a file, or - for stdin; -hex to decode
// each line); outputs are one hex line per input, or raw concatenated
// bytes with -raw. Connections: -ca, -cert and -key (mutual TLS),
// -token-file (bearer token).
package main

import (
	"bufio"
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"strings"
	"time"

	oblivex "github.com/oblivex/oblivex/bindings/go"
	"github.com/oblivex/oblivex/bindings/go/internal/keyservice"
)

const usage = `usage: oblivex-keyclient COMMAND [flags]
commands: keygen, deal, checked, threshold, bls, bench (each takes -h)`

func main() {
	log.SetFlags(0)
	if len(os.Args) < 2 {
		log.Fatal(usage)
	}
	commands := map[string]func([]string) error{
		"keygen": keygen, "deal": deal, "checked": checked, "threshold": threshold, "bls": blindBLS, "bench": bench,
	}
	run, ok := commands[os.Args[1]]
	if !ok {
		log.Fatal(usage)
	}
	if err := run(os.Args[2:]); err != nil && !errors.Is(err, flag.ErrHelp) {
		log.Fatalf("oblivex-keyclient %s: %v", os.Args[1], err)
	}
}

// connection is the flags of every command that calls servers.
type connection struct {
	transport keyservice.TransportConfig
	tokenFile string
	timeout   time.Duration
}

func (c *connection) register(fs *flag.FlagSet) {
	fs.StringVar(&c.transport.CAFile, "ca", "", "CA certificates (PEM) of the servers (default: the system's)")
	fs.StringVar(&c.transport.CertFile, "cert", "", "client certificate (PEM), for mutual TLS")
	fs.StringVar(&c.transport.KeyFile, "key", "", "client certificate's key (PEM)")
	fs.StringVar(&c.tokenFile, "token-file", "", "file holding the bearer token")
	fs.DurationVar(&c.timeout, "timeout", 10*time.Second, "time allowed to each server")
}

// client is a keyservice.Client of base with the connection's transport
// and token.
func (c *connection) client(base string) (*keyservice.Client, error) {
	httpClient, err := keyservice.NewHTTPClient(c.transport)
	if err != nil {
		return nil, err
	}
	kc := &keyservice.Client{Base: base, HTTP: httpClient}
	if c.tokenFile != "" {
		if kc.Token, err = keyservice.ReadToken(c.tokenFile); err != nil {
			return nil, err
		}
	}
	return kc, nil
}

// servers parses -servers "ID=URL,ID=URL,...".
func (c *connection) servers(list string) ([]keyservice.Server, error) {
	var servers []keyservice.Server
	for _, item := range strings.Split(list, ",") {
		idText, base, ok := strings.Cut(item, "=")
		id, err := strconv.ParseUint(idText, 10, 16)
		if !ok || err != nil || id == 0 {
			return nil, fmt.Errorf("-servers: want ID=URL, not %q", item)
		}
		kc, err := c.client(base)
		if err != nil {
			return nil, err
		}
		servers = append(servers, keyservice.Server{ID: uint16(id), Client: kc})
	}
	return servers, nil
}

// ioFlags are the flags of the commands that read inputs and write outputs.
type ioFlags struct {
	in    string
	hexIn bool
	raw   bool
}

func (f *ioFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.in, "in", "-", "inputs, one a line (- for stdin)")
	fs.BoolVar(&f.hexIn, "hex", false, "each input line is hex")
	fs.BoolVar(&f.raw, "raw", false, "write the outputs as raw bytes, concatenated, instead of hex lines")
}

// inputs reads the input lines.
func (f *ioFlags) inputs() ([][]byte, error) {
	var r io.Reader = os.Stdin
	if f.in != "-" {
		file, err := os.Open(f.in)
		if err != nil {
			return nil, err
		}
		defer file.Close()
		r = file
	}
	var inputs [][]byte
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 64<<10), oblivex.MaxInputLen*2+2)
	for scanner.Scan() {
		line := append([]byte(nil), scanner.Bytes()...)
		if f.hexIn {
			decoded, err := hex.DecodeString(string(line))
			if err != nil {
				return nil, fmt.Errorf("input %d: %w", len(inputs)+1, err)
			}
			line = decoded
		}
		inputs = append(inputs, line)
	}
	if err := scanner.Err(); err != nil {
		return nil, err
	}
	if len(inputs) == 0 {
		return nil, errors.New("no input")
	}
	return inputs, nil
}

// write prints the outputs.
func (f *ioFlags) write(outputs [][]byte) error {
	w := bufio.NewWriter(os.Stdout)
	for _, o := range outputs {
		if f.raw {
			w.Write(o)
		} else {
			fmt.Fprintf(w, "%x\n", o)
		}
	}
	return w.Flush()
}

func checked(args []string) error {
	var conn connection
	var files ioFlags
	fs := flag.NewFlagSet("checked", flag.ContinueOnError)
	conn.register(fs)
	files.register(fs)
	server := fs.String("server", "", "the server's URL")
	suiteName := fs.String("suite", oblivex.SuiteRistretto255.String(), "suite")
	publicKeyFile := fs.String("public-key", "", "the server's public key (its encoding), obtained authentically")
	if err := fs.Parse(args); err != nil {
		return err
	}
	suite, err := keyservice.SuiteByName(*suiteName)
	if err != nil {
		return err
	}
	encoded, err := os.ReadFile(*publicKeyFile)
	if err != nil {
		return err
	}
	publicKey, err := oblivex.ParsePublicKey(suite, encoded)
	if err != nil {
		return fmt.Errorf("%s: %w", *publicKeyFile, err)
	}
	kc, err := conn.client(*server)
	if err != nil {
		return err
	}
	inputs, err := files.inputs()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), conn.timeout)
	defer cancel()
	outputs, err := keyservice.Checked(ctx, kc, publicKey, inputs)
	if errors.Is(err, oblivex.ErrVerificationFailed) {
		return fmt.Errorf("the server %s cheated (no output): %w", *server, err)
	}
	if err != nil {
		return err
	}
	return files.write(outputs)
}

// thresholdFlags are the flags of the threshold commands.
// extra registers a command's own flags (nil for none).
func thresholdFlags(name string, args []string, publicHelp string, extra func(*flag.FlagSet)) (*connection, *ioFlags,
	[]keyservice.Server, []byte, error) {
	var conn connection
	var files ioFlags
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	if extra != nil {
		extra(fs)
	}
	conn.register(fs)
	files.register(fs)
	serverList := fs.String("servers", "", "the m servers: ID=URL,ID=URL,... (ID: the party id of the share each holds)")
	publicFile := fs.String("public", "", publicHelp)
	if err := fs.Parse(args); err != nil {
		return nil, nil, nil, nil, err
	}
	servers, err := conn.servers(*serverList)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	public, err := os.ReadFile(*publicFile)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return &conn, &files, servers, public, nil
}

// report prints what the threshold call learned about the servers (when
// it blames one: servers not awaited are the normal case of a quick
// quorum).
func report(outcome *keyservice.Outcome) {
	if outcome != nil && outcome.Blames() {
		log.Printf("servers: %v", outcome)
		for id, err := range outcome.Failed {
			log.Printf("server %d: %v", id, err)
		}
	}
}

func threshold(args []string) error {
	var suiteName string
	conn, files, servers, public, err := thresholdFlags("threshold", args, "the sharing's commitments (their encoding)",
		func(fs *flag.FlagSet) { fs.StringVar(&suiteName, "suite", oblivex.SuiteRistretto255.String(), "suite") })
	if err != nil {
		return err
	}
	suite, err := keyservice.SuiteByName(suiteName)
	if err != nil {
		return err
	}
	commitments, err := oblivex.ParseCommitments(suite, public)
	if err != nil {
		return err
	}
	defer commitments.Close()
	return runThreshold(files, func(inputs [][]byte) ([][]byte, *keyservice.Outcome, error) {
		return keyservice.ThresholdOPRF(context.Background(), commitments, servers, inputs, conn.timeout)
	})
}

func blindBLS(args []string) error {
	conn, files, servers, public, err := thresholdFlags("bls", args, "the signers' BLS key set (its encoding)", nil)
	if err != nil {
		return err
	}
	keySet, err := oblivex.ParseBLSKeySet(public)
	if err != nil {
		return err
	}
	defer keySet.Close()
	return runThreshold(files, func(messages [][]byte) ([][]byte, *keyservice.Outcome, error) {
		return keyservice.BlindBLS(context.Background(), keySet, servers, messages, conn.timeout)
	})
}

// runThreshold reads the inputs, runs call on them, reports the servers
// it named and writes the outputs.
func runThreshold(files *ioFlags, call func([][]byte) ([][]byte, *keyservice.Outcome, error)) error {
	inputs, err := files.inputs()
	if err != nil {
		return err
	}
	outputs, outcome, err := call(inputs)
	report(outcome)
	if err != nil {
		return err
	}
	return files.write(outputs)
}
