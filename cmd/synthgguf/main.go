// Command synthgguf writes a deterministic synthetic llama target model and
// its one-layer draft model as GGUF files, for benchmarking llama.cpp
// (including draft-model speculative decoding) without downloading weights.
//
// Usage:
//
//	synthgguf -out DIR [-layers 8 -embd 512 -ffn 1536 -heads 8 -vocab 700
//	          -layer-std 0.015 -embd-std 1 -output-std 0.05 -seed 1]
//
// It writes DIR/target.gguf and DIR/draft.gguf and prints their SHA-256 in
// sha256sum format. Each file is written under a temporary name in DIR and
// renamed into place only when complete, so an interrupted run never leaves
// a truncated model under the final name.
package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/decodebench/decodebench/synthmodel"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		fmt.Fprintln(os.Stderr, "synthgguf:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	c := synthmodel.Default()
	fs := flag.NewFlagSet("synthgguf", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "output directory (required); created if missing")
	fs.IntVar(&c.Layers, "layers", c.Layers, "target model layers (the draft always has 1)")
	fs.IntVar(&c.Embd, "embd", c.Embd, "embedding width (n_embd)")
	fs.IntVar(&c.FFN, "ffn", c.FFN, "feed-forward width (n_ff)")
	fs.IntVar(&c.Heads, "heads", c.Heads, "attention heads")
	fs.IntVar(&c.Vocab, "vocab", c.Vocab, fmt.Sprintf("vocabulary size (259..%d)", synthmodel.MaxVocab()))
	fs.Float64Var(&c.LayerStd, "layer-std", c.LayerStd, "std of attention/FFN weights; larger makes the draft a worse predictor")
	fs.Float64Var(&c.EmbdStd, "embd-std", c.EmbdStd, "std of token embeddings")
	fs.Float64Var(&c.OutputStd, "output-std", c.OutputStd, "std of the output (LM head) matrix")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "weight seed")
	fs.StringVar(&c.Name, "name", c.Name, "general.name of the target (the draft appends -draft)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() != 0 {
		fs.Usage()
		return errors.New("-out DIR is required and no positional arguments are accepted")
	}
	if err := c.Validate(); err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}

	// On SIGINT/SIGTERM, make the writers fail so the temporary files are
	// removed before exiting.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	for _, m := range []struct {
		file  string
		write func(io.Writer, synthmodel.Config) error
	}{
		{"target.gguf", synthmodel.WriteTarget},
		{"draft.gguf", synthmodel.WriteDraft},
	} {
		path := filepath.Join(*out, m.file)
		start := time.Now()
		sum, size, err := writeAtomic(ctx, path, func(w io.Writer) error { return m.write(w, c) })
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s  %s\n", sum, path)
		fmt.Fprintf(stderr, "synthgguf: wrote %s (%d bytes) in %v\n", path, size, time.Since(start).Round(time.Millisecond))
	}
	return nil
}

// writeAtomic writes path through a temporary file in the same directory and
// renames it into place after a successful sync. It returns the hex SHA-256
// and size of what was written.
func writeAtomic(ctx context.Context, path string, write func(io.Writer) error) (sum string, size int64, err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return "", 0, err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	h := sha256.New()
	cw := &ctxWriter{ctx: ctx, w: io.MultiWriter(f, h)}
	bw := bufio.NewWriterSize(cw, 1<<20)
	if err = write(bw); err != nil {
		return "", 0, err
	}
	if err = bw.Flush(); err != nil {
		return "", 0, err
	}
	// CreateTemp makes the file 0600; a model is meant to be shared. Set
	// through the open file, not by name: a link swapped in at the
	// temporary name is never followed.
	if err = f.Chmod(0o644); err != nil {
		return "", 0, err
	}
	if err = f.Sync(); err != nil {
		return "", 0, err
	}
	if err = f.Close(); err != nil {
		return "", 0, err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), cw.n, nil
}

// ctxWriter fails writes once ctx is done, which aborts generation promptly.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
	n   int64
}

func (c *ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, fmt.Errorf("interrupted: %w", err)
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
