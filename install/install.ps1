# Installs hook-notify with npm, then adds it to your coding agent's hooks (Windows PowerShell).
#   powershell -ExecutionPolicy Bypass -File install.ps1                 every client found
#   powershell -ExecutionPolicy Bypass -File install.ps1 --client droid  any "hook-notify install" flag
# Set $env:HOOK_NOTIFY_PACKAGE to install another version or a local tarball.
$ErrorActionPreference = "Stop"

$package = if ($env:HOOK_NOTIFY_PACKAGE) { $env:HOOK_NOTIFY_PACKAGE } else { "hook-notify" }

if (-not (Get-Command node -ErrorAction SilentlyContinue) -or -not (Get-Command npm -ErrorAction SilentlyContinue)) {
  Write-Error "hook-notify needs Node.js 20.19 or newer with npm. Install Node.js, then run this again."
  exit 1
}

# 20.19 is the oldest Node.js the package supports (package.json "engines").
if ([version](node -p process.versions.node) -lt [version]"20.19.0") {
  Write-Error "hook-notify needs Node.js 20.19 or newer; this is $(node --version)."
  exit 1
}

Write-Host "Installing $package with npm (global)..."
npm install --global $package
if ($LASTEXITCODE -ne 0) {
  Write-Error "npm could not install $package globally."
  exit 1
}

$bin = Get-Command hook-notify -ErrorAction SilentlyContinue
if (-not $bin) {
  $prefix = (npm prefix --global).Trim()
  Write-Error "hook-notify was installed but is not on PATH. Add $prefix to PATH and open a new terminal."
  exit 1
}

& $bin.Source install @args
exit $LASTEXITCODE
