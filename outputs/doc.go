// Package outputs compares generated outputs mechanically: it decides
// whether two greedy (temperature-0) outputs are byte-identical and, when
// they are not, says exactly where they part (the first divergence, with
// an excerpt of each), which outputs cannot be compared at all (Empty),
// and how far a baseline's runs agree with each other (SelfAgreement).
//
// This is output identity, as a record's "Output identity" section reports
// it. The other identities a record holds are not here: the engine's
// (binary hash, version, libraries, models: engine.Identify and
// engine.ModelFiles) and the machine's (hardware and OS: machine.Identify).
//
// Output identity between a baseline arm (classic decode) and another arm
// (speculative decoding, …) has been "confirmed by eye" wrongly before: texts
// that diverged at character 159 while a short probe passed, an
// empty-versus-empty comparison that passed because a reasoning model put all
// of its text in a separate channel, a drafter banner line that made a false
// divergence at byte 1. Nothing here is judged by eye.
//
// # Comparison
//
// Compare always compares Text byte by byte and Reasoning byte by byte. It
// compares Tokens as well when both outputs carry them (non-nil; a non-nil
// empty slice means "complete, and zero tokens"). Identical requires every
// compared part to match. Tokens that match while the texts differ
// (detokenization differences, a stripped banner) leave Identical false, with
// TokensCompared true and TokenIndex -1 saying that the tokens agreed.
//
// Compare is purely mechanical: two empty outputs are identical. Whether an
// output is worth comparing at all is Empty's question, and a caller must ask
// it of every output before trusting Identical.
//
// # Offsets and excerpts
//
// ByteOffset is the first byte at which the texts differ, or the length of
// the shorter text when it is a prefix of the other. It counts bytes, not
// characters: when a model emits "é" (C3 A9) as two byte tokens and the
// outputs differ in the second, ByteOffset points at the A9.
//
// The excerpts show about 40 bytes of context on each side of the divergence
// with the marker "⟦" where the outputs start to differ. The context is never
// cut inside a UTF-8 character, and when the divergence lies inside a
// character of either output the marker moves back to the start of that
// character, so that both whole characters are visible after it ("caf⟦é" vs
// "caf⟦è", while ByteOffset still says 4). The text before the marker is
// therefore the same in both excerpts. "…" at either end of an excerpt means
// the output goes on beyond it.
//
// Excerpts are escaped so that they are always valid UTF-8, one line, and
// unambiguous, in the style of strconv.Quote without the surrounding quotes
// and without escaping '"':
//
//   - a byte that is not part of valid UTF-8 (byte-level models can stop in
//     the middle of a character) is shown as \xNN, never silently as U+FFFD;
//   - control characters and non-printing characters are escaped as
//     strconv.Quote escapes them (\n, \t, \x00, \u00a0, \u200b), so that a
//     newline-versus-space or a no-break-space difference is visible;
//   - a backslash is shown as \\;
//   - the characters that the excerpt itself uses, "⟦" and "…", and a genuine
//     U+FFFD in the text, are shown as \u27e6, \u2026 and \ufffd, so that an
//     unescaped "⟦" or "…" in an excerpt is always the marker or the cut, and
//     an excerpt never contains U+FFFD at all.
//
// Printable non-ASCII characters (é, 😀, 漢) are shown as themselves.
//
// # Empty outputs
//
// Empty treats an output as not comparable when its Text is empty or consists
// only of whitespace (unicode.IsSpace; bytes of invalid UTF-8 are not
// whitespace). Two runs that each emitted "\n\n" and stopped, or that put all
// of their text in the reasoning channel and a newline outside it, agree
// byte for byte and prove nothing about the decode path; that is the
// empty-versus-empty false pass in another form.
package outputs
