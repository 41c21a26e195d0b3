package schema

// ArmsLoaded is the set of shared objects the engine's process tree had
// mapped (read after it was ready, before the measured window, and again
// after it), as the arms that loaded it: the libraries that really ran,
// where Engine.Libraries are the candidates found from the binary (a
// Debian llama.cpp carries fourteen ggml CPU backends; the engine loads
// one). Every run of these arms loaded this set (Run.Loaded).
type ArmsLoaded struct {
	Arms      []string  `json:"arms"`
	Libraries []FileSum `json:"libraries"`
}

// LoadedOf is the set arm loaded, nil when the record has none for it.
func (r *Record) LoadedOf(arm string) []FileSum {
	for _, l := range r.Loaded {
		for _, a := range l.Arms {
			if a == arm {
				return l.Libraries
			}
		}
	}
	return nil
}
