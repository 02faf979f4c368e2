package ratelimit_test

import (
	"fmt"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/ratelimit"
)

// A Limiter keeps one token bucket per client: "3/min" allows a burst of
// three, then one more every 20 seconds. The clock is passed in, so this
// example moves it by hand.
func ExampleLimiter_Allow() {
	rate, err := ratelimit.ParseRate("3/min")
	if err != nil {
		fmt.Println(err)
		return
	}
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	limiter := ratelimit.New(rate, func() time.Time { return now })

	for i := 1; i <= 4; i++ {
		if wait, ok := limiter.Allow("com.example.assistant"); ok {
			fmt.Printf("call %d: allowed\n", i)
		} else {
			fmt.Printf("call %d: refused, retry in %s\n", i, ratelimit.RetryIn(wait))
		}
	}
	_, ok := limiter.Allow("com.example.other")
	fmt.Println("another client: allowed", ok)
	now = now.Add(20 * time.Second)
	_, ok = limiter.Allow("com.example.assistant")
	fmt.Println("20 seconds later: allowed", ok)
	// Output:
	// call 1: allowed
	// call 2: allowed
	// call 3: allowed
	// call 4: refused, retry in 20 seconds
	// another client: allowed true
	// 20 seconds later: allowed true
}
