package website

// RenderUnchecked makes the site render the Markdown of records check
// finds a problem in, as it did before, until the returned func is called.
func RenderUnchecked() func() {
	renderUnchecked = true
	return func() { renderUnchecked = false }
}
