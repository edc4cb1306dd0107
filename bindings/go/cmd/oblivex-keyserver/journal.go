package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// journalName is the quota journal's file in the -quota-state directory.
const journalName = "quota.journal"

// journalMagic opens the journal's header (its format version is the
// last byte).
var journalMagic = []byte("oblivex-quota-journal\x01")

// The record kinds: elements taken, elements given back.
const (
	recordTake   = '+'
	recordRefund = '-'
)

// journal makes the quota durable: an append-only file holding the current
// window (a header: the window's length and start) and one record per
// take and refund in it (kind, count, client, CRC-32). A take is on disk
// (written and fsynced) before the request it pays for is answered; the
// requests waiting at once share one fsync (group commit). At each window's
// end the file is replaced by a new one holding the header alone, so it
// never grows past one window's records.
type journal struct {
	dir  string
	mu   sync.Mutex // guards file, pending and appended
	file *os.File
	// pending holds the records appended and not yet written.
	pending []byte
	// appended numbers the records appended (the last one's number).
	appended uint64
	// flush lets one writer at a time write and fsync what is pending.
	flush sync.Mutex
	// durable is the number of the last record known on disk.
	durable atomic.Uint64
	// syncs counts the fsyncs (each covering every record pending).
	syncs atomic.Int64
	// failed is why the journal stopped: a write or fsync failed (the
	// records it carried are lost, and a later fsync could not vouch for
	// them), or a new window's journal could not be begun (records would
	// count in the old window). From then on no take is made durable, so
	// every answer is withheld (503) until a restart reads the journal
	// again, rather than a quota forgotten.
	failed error
}

// journalState is what a journal held when it was opened: the window's
// start and each client's elements in it.
type journalState struct {
	start time.Time
	used  map[string]int64
}

// errJournalCorrupt is a journal whose records cannot be trusted: a
// complete record fails its checksum, or the header is not a journal's.
var errJournalCorrupt = errors.New("quota journal corrupted")

// openJournal opens (or creates, with a window starting at now) the
// journal in dir for windows of length window and returns what it holds.
// A final record cut short (a write a crash interrupted: its request was
// never answered, since the answer waits for the fsync) is cut off; a
// damaged complete record, or a journal written for another window length,
// is an error: the server does not start rather than forget spent quota.
func openJournal(dir string, window time.Duration, now time.Time) (*journal, journalState, error) {
	j := &journal{dir: dir}
	path := filepath.Join(dir, journalName)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		state := journalState{start: now, used: map[string]int64{}}
		return j, state, j.begin(window, now)
	}
	if err != nil {
		return nil, journalState{}, err
	}
	state, valid, err := replay(data, window)
	if err != nil {
		return nil, journalState{}, fmt.Errorf("%s: %w", path, err)
	}
	if j.file, err = os.OpenFile(path, os.O_WRONLY, 0o600); err != nil {
		return nil, journalState{}, err
	}
	if valid < len(data) {
		// A torn final record: cut it off, so new records follow the last
		// whole one.
		if err := j.file.Truncate(int64(valid)); err != nil {
			return nil, journalState{}, err
		}
		if err := j.file.Sync(); err != nil {
			return nil, journalState{}, err
		}
	}
	if _, err := j.file.Seek(int64(valid), io.SeekStart); err != nil {
		return nil, journalState{}, err
	}
	return j, state, nil
}

// replay reads a journal's bytes: the window's state and how many bytes
// of whole records there are.
func replay(data []byte, window time.Duration) (journalState, int, error) {
	header, rest, ok := bytes.Cut(data, journalMagic)
	if !ok || len(header) != 0 || len(rest) < 8+8+4 {
		return journalState{}, 0, fmt.Errorf("%w: no journal header", errJournalCorrupt)
	}
	fields := rest[:16]
	if crc32.ChecksumIEEE(append(append([]byte{}, journalMagic...), fields...)) != binary.BigEndian.Uint32(rest[16:20]) {
		return journalState{}, 0, fmt.Errorf("%w: header checksum", errJournalCorrupt)
	}
	if got := time.Duration(binary.BigEndian.Uint64(fields[:8])); got != window {
		return journalState{}, 0, fmt.Errorf("written for a -quota-window of %v, not %v: keep the window, or remove the journal to forget the spent quota", got, window)
	}
	state := journalState{
		start: time.Unix(0, int64(binary.BigEndian.Uint64(fields[8:16]))),
		used:  map[string]int64{},
	}
	offset := len(journalMagic) + 20
	for offset < len(data) {
		kind, n, client, size, err := readRecord(data[offset:])
		if errors.Is(err, io.ErrUnexpectedEOF) {
			break // torn final record
		}
		if err != nil {
			return journalState{}, 0, fmt.Errorf("%w: record at byte %d: %v", errJournalCorrupt, offset, err)
		}
		if kind == recordTake {
			state.used[client] += n
		} else {
			// A refund follows its take in the same window; never below
			// zero, whatever the file says.
			state.used[client] = max(state.used[client]-n, 0)
		}
		offset += size
	}
	return state, offset, nil
}

// readRecord reads one record: kind, count, client and its size in bytes;
// io.ErrUnexpectedEOF when the data ends inside it.
func readRecord(data []byte) (byte, int64, string, int, error) {
	const fixed = 1 + 8 + 2
	if len(data) < fixed {
		return 0, 0, "", 0, io.ErrUnexpectedEOF
	}
	size := fixed + int(binary.BigEndian.Uint16(data[9:11])) + 4
	if len(data) < size {
		return 0, 0, "", 0, io.ErrUnexpectedEOF
	}
	body := data[:size-4]
	if crc32.ChecksumIEEE(body) != binary.BigEndian.Uint32(data[size-4:size]) {
		return 0, 0, "", 0, errors.New("checksum")
	}
	kind, n := body[0], int64(binary.BigEndian.Uint64(body[1:9]))
	if (kind != recordTake && kind != recordRefund) || n < 0 {
		return 0, 0, "", 0, errors.New("unknown kind or negative count")
	}
	return kind, n, string(body[fixed:]), size, nil
}

// begin replaces the journal by one holding only the header of the window
// starting at start (its records, of the window before, no longer
// count): written to a new file, fsynced, renamed over the old one, the
// directory fsynced. Called with j.mu and j.flush held, or before use.
func (j *journal) begin(window time.Duration, start time.Time) error {
	header := append([]byte{}, journalMagic...)
	header = binary.BigEndian.AppendUint64(header, uint64(window))
	header = binary.BigEndian.AppendUint64(header, uint64(start.UnixNano()))
	header = binary.BigEndian.AppendUint32(header, crc32.ChecksumIEEE(header))
	path := filepath.Join(j.dir, journalName)
	temporary := path + ".new"
	file, err := os.OpenFile(temporary, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err = file.Write(header); err == nil {
		err = file.Sync()
	}
	if err == nil {
		err = os.Rename(temporary, path)
	}
	if err == nil {
		err = syncDir(j.dir)
	}
	if err != nil {
		file.Close()
		return err
	}
	if j.file != nil {
		j.file.Close()
	}
	j.file = file
	j.pending = nil
	j.durable.Store(j.appended) // the old window's records no longer matter
	return nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// newWindow starts the journal of the window starting at start. If it
// cannot, the journal fails: every later sync returns the error.
func (j *journal) newWindow(window time.Duration, start time.Time) {
	j.flush.Lock()
	defer j.flush.Unlock()
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.begin(window, start); err != nil {
		j.failed = fmt.Errorf("beginning the journal of a new window: %w", err)
	}
}

// append adds a record and returns its number (for sync); nothing is
// written yet. Client names are short (maxClientNameLen, or a certificate
// key's hash), well within the record's 16-bit length.
func (j *journal) append(kind byte, client string, n int64) uint64 {
	record := []byte{kind}
	record = binary.BigEndian.AppendUint64(record, uint64(n))
	record = binary.BigEndian.AppendUint16(record, uint16(len(client)))
	record = append(record, client...)
	record = binary.BigEndian.AppendUint32(record, crc32.ChecksumIEEE(record))
	j.mu.Lock()
	defer j.mu.Unlock()
	j.pending = append(j.pending, record...)
	j.appended++
	return j.appended
}

// sync returns once record number seq is on disk: it writes and fsyncs
// every record pending, unless another call's fsync covered seq already
// (the requests waiting at once share one fsync).
func (j *journal) sync(seq uint64) error {
	if j.durable.Load() >= seq {
		return nil
	}
	j.flush.Lock()
	defer j.flush.Unlock()
	if j.durable.Load() >= seq {
		return nil
	}
	j.mu.Lock()
	pending, upto, file, failed := j.pending, j.appended, j.file, j.failed
	j.pending = nil
	j.mu.Unlock()
	if failed != nil {
		return failed
	}
	_, err := file.Write(pending)
	if err == nil {
		err = file.Sync()
	}
	if err != nil {
		j.mu.Lock()
		j.failed = fmt.Errorf("writing the journal: %w", err)
		j.mu.Unlock()
		return err
	}
	j.syncs.Add(1)
	j.durable.Store(upto)
	return nil
}

// close closes the journal's file (what is pending is not needed: no
// request it paid for was answered).
func (j *journal) close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.file.Close()
}
