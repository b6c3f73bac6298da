package offer_test

import (
	"fmt"

	"github.com/ahpgen/ahpgen/offer"
)

// A request's capabilities answer what a backend may return, and judge
// what it wants to return.
func Example() {
	o, err := offer.Parse([]byte(`{"effects":["deny","modify"],"modify":{"input":{"replace":false,"merge":true}}}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Offers(offer.Deny), o.CanModify(offer.TargetInput, offer.Merge), o.CanModify(offer.TargetInput, offer.Replace))
	fmt.Println(o.CheckEffects([]byte(`[{"type":"deny","reason":"no"},{"type":"modify","target":"input","operation":"replace","value":{}}]`)))
	// Output:
	// true true false
	// offer: /1/target: modify "input" by "replace" is not offered (offered: input by merge)
}
