<?php
// Never ends.
$turns = 0;
while (true) {
    $turns++;
}
