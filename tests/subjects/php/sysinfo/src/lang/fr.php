<?php
$strings = array(
    'vitals' => 'État du système', 'hostname' => "Nom d'hôte", 'kernel' => 'Noyau',
    'uptime' => 'Temps de fonctionnement', 'load' => 'Charge moyenne', 'cpus' => 'Processeurs',
    'cpu' => 'Matériel', 'model' => 'Modèle', 'speed' => 'Fréquence', 'cache' => 'Cache',
    'memory' => 'Mémoire', 'type' => 'Type', 'used' => 'Utilisé', 'free' => 'Libre', 'size' => 'Taille',
    'usage' => 'Utilisation', 'physical' => 'Mémoire physique', 'programs' => 'Programmes',
    'buffers' => 'Tampons et cache', 'swap' => "Espace d'échange", 'noswap' => "pas d'espace d'échange",
    'disks' => 'Systèmes de fichiers', 'mount' => 'Point de montage', 'device' => 'Périphérique',
    'totals' => 'Totaux', 'network' => 'Réseau', 'interface' => 'Interface',
    'received' => 'Reçu', 'sent' => 'Envoyé', 'errors' => 'Erreurs / paquets',
    'unavailable' => 'non disponible', 'day' => 'jour', 'days' => 'jours', 'hour' => 'heure',
    'hours' => 'heures', 'minute' => 'minute', 'minutes' => 'minutes', 'busy' => 'occupé',
    'language' => 'Langue', 'show' => 'Afficher',
);
