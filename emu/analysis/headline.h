/*
 * headline.h - a claim's one-line figures (the short `reproduce` report): where,
 * the emulated value with its interval, the published value.
 */
#ifndef MMEMU_HEADLINE_H
#define MMEMU_HEADLINE_H

#include <jansson.h>

/**
 * headline_claim() - set claim object @o's "headline": {"at": the point or row
 * the verdict rests on most, "of": how many points or rows were judged (when
 * more than one), "emulated": its value with the 95% interval or the runs'
 * range ("deterministic in the model" when no run differs), "published": the
 * published value or range, else the claim's own range from published claim
 * @cl}.  Returns: nothing.
 */
void headline_claim(json_t *o, json_t *cl);

#endif
