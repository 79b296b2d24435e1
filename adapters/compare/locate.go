package compare

import (
	"context"
	"twissandra/ports/teaching"
)

// Locator locates each record in both models: the primary's places, then the secondary's (left
// out, and reported, when the secondary fails).
func Locator(p *Pair, primary, secondary teaching.Locator) teaching.Locator {
	return locator{p, primary, secondary}
}

type locator struct {
	p            *Pair
	primary, sec teaching.Locator
}

func (l locator) Locate(ctx context.Context, loci []teaching.Locus) ([]teaching.Placement, error) {
	out, err := l.primary.Locate(ctx, loci)
	if err != nil {
		return nil, err
	}
	var more []teaching.Placement
	if l.p.secondary(ctx, "locate", func(ctx context.Context) error {
		var err error
		more, err = l.sec.Locate(ctx, loci)
		return err
	}) {
		out = append(out, more...)
	}
	return out, nil
}
