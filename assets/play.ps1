# Plays one WAV file on Windows; hook-notify passes the path as the only argument.
param([Parameter(Mandatory = $true)][string]$Path)
(New-Object System.Media.SoundPlayer $Path).PlaySync()
