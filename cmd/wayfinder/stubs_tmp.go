package main

import "context"

func cmdBench(ctx context.Context, args []string) error { return nil }
func cmdServe(ctx context.Context, args []string) error { return nil }
