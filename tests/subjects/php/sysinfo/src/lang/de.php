<?php
$strings = array(
    'vitals' => 'Systemdaten', 'hostname' => 'Rechnername', 'kernel' => 'Kernel',
    'uptime' => 'Laufzeit', 'load' => 'Auslastung', 'cpus' => 'Prozessoren',
    'cpu' => 'Hardware', 'model' => 'Modell', 'speed' => 'Takt', 'cache' => 'Cache',
    'memory' => 'Speicher', 'type' => 'Typ', 'used' => 'Belegt', 'free' => 'Frei', 'size' => 'Größe',
    'usage' => 'Belegung', 'physical' => 'Hauptspeicher', 'programs' => 'Programme',
    'buffers' => 'Puffer und Cache', 'swap' => 'Auslagerung', 'noswap' => 'keine Auslagerung',
    'disks' => 'Dateisysteme', 'mount' => 'Einhängepunkt', 'device' => 'Gerät',
    'totals' => 'Summe', 'network' => 'Netzwerk', 'interface' => 'Schnittstelle',
    'received' => 'Empfangen', 'sent' => 'Gesendet', 'errors' => 'Fehler / Pakete',
    'unavailable' => 'nicht verfügbar', 'day' => 'Tag', 'days' => 'Tage', 'hour' => 'Stunde',
    'hours' => 'Stunden', 'minute' => 'Minute', 'minutes' => 'Minuten', 'busy' => 'ausgelastet',
    'language' => 'Sprache', 'show' => 'Anzeigen',
);
