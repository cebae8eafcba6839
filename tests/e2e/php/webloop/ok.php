<?php
// Ends at once.
echo "<!DOCTYPE html>\n<html><head><title>ok</title></head><body><p>ok</p></body></html>\n";
