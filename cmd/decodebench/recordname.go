package main

import (
	"time"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/recorder"
)

// recordNameFlags checks the flags that name a command's records, --hw
// and --date, before anything is loaded, planned or run: a dry run that
// accepts them is a campaign whose record can be named, and a campaign
// does not find its name refused once it has begun. Commands without one
// of the flags read it as empty.
func recordNameFlags(c *cli.Context, cmd string) error {
	if hw := c.String("hw"); c.IsSet("hw") {
		if err := recorder.CheckHardware(hw); err != nil {
			return usageError("%s --hw: %v", cmd, err)
		}
	}
	if d := c.String("date"); d != "" {
		if err := recorder.CheckDate(d); err != nil {
			return usageError("%s --date: %v", cmd, err)
		}
	}
	return nil
}

// recordNameOf checks the name of the record a campaign of feature would
// write, where the hardware is known before it starts (--hw, else the
// scenario's own slug; a slug detected at the start is a valid one) on
// --date or today: the name's length besides its parts (recorder.CheckName).
func recordNameOf(c *cli.Context, cmd, feature, scenarioHW string) error {
	hw := c.String("hw")
	if hw == "" && scenarioHW != "auto" {
		hw = scenarioHW
	}
	date := c.String("date")
	if date == "" {
		date = time.Now().Format("2006-01-02")
	}
	if hw == "" {
		return nil
	}
	if err := recorder.CheckName(feature, hw, date); err != nil {
		return usageError("%s: %v", cmd, err)
	}
	return nil
}
