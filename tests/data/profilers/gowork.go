// gowork.go - a small Go program that writes a CPU profile and a heap
// profile with runtime/pprof, for trail's pprof reader tests (see README).
package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
)

var sink []string

//go:noinline
func hash(s string) uint64 {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// small enough to be inlined into its caller: a Line entry of its own
func mix(h uint64) uint64 { return h ^ (h >> 29) }

//go:noinline
func build(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("abcdefgh")
	}
	s := b.String()
	sink = append(sink, s)
	return s
}

//go:noinline
func work(rounds int) uint64 {
	var acc uint64
	for r := 0; r < rounds; r++ {
		s := build(64 + r%64)
		for k := 0; k < 40; k++ {
			acc += mix(hash(s))
		}
		if len(sink) > 1000 {
			sink = sink[:0]
		}
	}
	return acc
}

func main() {
	runtime.MemProfileRate = 4096
	cpu, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	pprof.StartCPUProfile(cpu)
	println(work(300000))
	pprof.StopCPUProfile()
	cpu.Close()
	heap, err := os.Create(os.Args[2])
	if err != nil {
		panic(err)
	}
	pprof.WriteHeapProfile(heap)
	heap.Close()
}
