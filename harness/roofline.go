package harness

import (
	"context"

	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/roofline"
	"github.com/decodebench/decodebench/schema"
)

// recordRoofline puts each arm's roofline share into the record
// (schema.ArmRoofline): the bytes a token reads of the model its command
// line names, the bandwidth of the memory it decoded from (the GPU's
// when its runs loaded a CUDA backend, the Apple chip's on a Mac, from
// the table; the host's memory, measured, otherwise), and its median
// decode rate. An arm whose model is not a file this can read, or that
// has no decode rate, has none.
func (c *campaign) recordRoofline(ctx context.Context) {
	rec := c.rec
	rec.Roofline = nil
	var host *machine.Bandwidth
	for _, a := range c.scenario.Arms {
		cmd := roofline.ParseCommand(c.scenario.Launch(a.Name).Command)
		rate := schema.RunsMedian(rec.Runs, a.Name, func(r schema.Run) (float64, bool) {
			v, ok := r.Analysed()[schema.DecodeTokS]
			return v, ok && v > 0
		})
		if cmd.Model == "" || rate <= 0 {
			continue
		}
		w, err := roofline.Read(cmd.Model)
		if err != nil {
			continue
		}
		var draft *roofline.Weights
		if cmd.Draft != "" {
			if d, err := roofline.Read(cmd.Draft); err == nil {
				draft = &d
			}
		}
		prompt := schema.RunsMedian(rec.Runs, a.Name, func(r schema.Run) (float64, bool) {
			v, ok := r.EngineTimings["prompt_n"]
			return v, ok
		})
		tokens := schema.RunsMedian(rec.Runs, a.Name, func(r schema.Run) (float64, bool) { return float64(r.Tokens), r.Tokens > 0 })
		context := 0.0
		if prompt > 0 && tokens > 0 {
			context = prompt + tokens/2
		}
		bw, ok := machine.TableBandwidth(rec.Machine, roofline.LoadedGPU(rec, a.Name))
		cache := int64(0)
		if !ok {
			if host == nil {
				b, err := machine.HostBandwidth(ctx, rec.Machine)
				if err != nil {
					return
				}
				host = &b
			}
			bw, cache = *host, machine.LastLevelCache()
		}
		r := roofline.Arm(a.Name, cmd, w, draft, rate, context, schema.ArmRoofline{
			BandwidthGBs: bw.GBs, Memory: bw.Memory, BandwidthSource: bw.Source, BandwidthMeasured: bw.Measured}, cache)
		rec.Roofline = append(rec.Roofline, r)
	}
}
