<?php
// An element HTML does not have: libtidy's error, a failure under --html.
echo "<!DOCTYPE html>\n<html><head><title>broken</title></head><body><blink2>x</blink2></body></html>\n";
