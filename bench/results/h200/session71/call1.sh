#!/usr/bin/env bash
# Session 71, call 1: session 70's next.sh as prepared there (builds and carry in its header). The copy that ran
# here differed from next.sh only in its first comment line; it is kept as this one line so as not to be a second
# copy of the steps.
. bench/results/h200/session70/next.sh
