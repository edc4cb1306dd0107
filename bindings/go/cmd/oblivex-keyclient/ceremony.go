package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	oblivex "github.com/oblivex/oblivex/bindings/go"
	"github.com/oblivex/oblivex/bindings/go/internal/keyservice"
)

// writeSecret writes a secret to a new file only its owner may read
// (refusing to overwrite one), then wipes the bytes.
func writeSecret(path string, secret []byte) error {
	defer wipe(secret)
	return writeNew(path, secret, 0o600)
}

// writePublic writes a public value to a new file.
func writePublic(path string, value []byte) error { return writeNew(path, value, 0o644) }

// writeNew writes b to a new file of mode perm.
func writeNew(path string, b []byte, perm os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func wipe(b []byte) {
	for i := range b {
		b[i] = 0
	}
}

// keygen writes a fresh OPRF key (FILE, mode 600) and its public key
// (FILE.pub).
func keygen(args []string) error {
	fs := flag.NewFlagSet("keygen", flag.ContinueOnError)
	suiteName := fs.String("suite", oblivex.SuiteRistretto255.String(), "suite")
	out := fs.String("out", "", "the key file to create (the public key goes to FILE.pub)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("no -out")
	}
	suite, err := keyservice.SuiteByName(*suiteName)
	if err != nil {
		return err
	}
	server, err := oblivex.GenerateOPRFServer(suite)
	if err != nil {
		return err
	}
	defer server.Close()
	secret, err := server.SecretKey()
	if err != nil {
		return err
	}
	if err := writeSecret(*out, secret); err != nil {
		return err
	}
	return writePublic(*out+".pub", server.PublicKey().Bytes())
}

// deal is a dealer's ceremony: a fresh t-of-m sharing, written as
// DIR/share-ID.key (mode 600, one per server, to be moved to it over a
// private channel and deleted here) and DIR/commitments.bin (or, -bls,
// DIR/bls-keyset.bin), public.
func deal(args []string) error {
	fs := flag.NewFlagSet("deal", flag.ContinueOnError)
	suiteName := fs.String("suite", oblivex.SuiteRistretto255.String(), "suite (ignored with -bls)")
	t := fs.Int("t", 3, "threshold: servers needed")
	m := fs.Int("m", 5, "servers")
	out := fs.String("out", "", "directory to write the shares and the public file to (created, mode 700)")
	bls := fs.Bool("bls", false, "a threshold blind BLS key (shares of BLS12381G1-SHA256 and a key set)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("no -out")
	}
	if err := os.MkdirAll(*out, 0o700); err != nil {
		return err
	}
	var shares []*oblivex.KeyShare
	var public []byte
	var publicName string
	if *bls {
		var keySet *oblivex.BLSKeySet
		var err error
		if shares, keySet, err = oblivex.DealBLS(nil, *t, *m); err != nil {
			return err
		}
		defer keySet.Close()
		if public, err = keySet.Bytes(); err != nil {
			return err
		}
		publicName = "bls-keyset.bin"
	} else {
		suite, err := keyservice.SuiteByName(*suiteName)
		if err != nil {
			return err
		}
		var commitments *oblivex.Commitments
		if shares, commitments, err = oblivex.Deal(suite, nil, *t, *m); err != nil {
			return err
		}
		defer commitments.Close()
		if public, err = commitments.Bytes(); err != nil {
			return err
		}
		publicName = "commitments.bin"
	}
	defer func() {
		for _, s := range shares {
			s.Close()
		}
	}()
	for _, s := range shares {
		encoded, err := s.Bytes()
		if err != nil {
			return err
		}
		if err := writeSecret(filepath.Join(*out, fmt.Sprintf("share-%d.key", s.ID())), encoded); err != nil {
			return err
		}
	}
	return writePublic(filepath.Join(*out, publicName), public)
}
