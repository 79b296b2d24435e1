package memory_test

import (
	"testing"

	"twissandra/adapters/memory"
	"twissandra/ports/porttest"
)

func TestContract(t *testing.T) {
	porttest.Run(t, func(t *testing.T) porttest.Stores {
		s := memory.New()
		return porttest.Stores{Users: s, Tweets: s, Lines: s}
	})
}
