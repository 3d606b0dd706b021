# Build Sightline's Windows bundle and installer (run from any folder, in PowerShell 5+ or pwsh):
#
#   powershell -ExecutionPolicy Bypass -File packaging\windows\build-windows.ps1 [-Python py] [-NoInstaller]
#
# 1. a build venv in build\venv with the app's dependencies (pyproject.toml) and PyInstaller
#    (packaging\requirements-build.txt); 2. the bundle dist\sightline\ (packaging\sightline.spec);
# 3. a smoke test: sightline-cli.exe --check offscreen; 4. the installer with Inno Setup's iscc
#    (dist\sightline-<version>-windows-x64-setup.exe). Signing: set SIGHTLINE_SIGN_COMMAND (see docs/packaging.md).
param(
    [string]$Python = "py",
    [switch]$NoInstaller
)
$ErrorActionPreference = "Stop"
$Root = Resolve-Path (Join-Path $PSScriptRoot "..\..")
Set-Location $Root
$Start = Get-Date

function Fail($Message) { Write-Error "build-windows: $Message"; exit 1 }

$PyArgs = @()
if ($Python -eq "py") { $PyArgs = @("-3") }
& $Python @PyArgs -c "import sys; sys.exit(sys.version_info < (3, 11))"
if ($LASTEXITCODE -ne 0) { Fail "needs Python 3.11 or newer ($Python)" }

$Venv = "build\venv"
if (-not (Test-Path "$Venv\Scripts\python.exe")) {
    & $Python @PyArgs -m venv $Venv
    if ($LASTEXITCODE -ne 0) { Fail "cannot create the build venv" }
}
$VenvPython = Join-Path $Root "$Venv\Scripts\python.exe"
& $VenvPython -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" |
    Set-Content -Encoding utf8 build\requirements-app.txt
& $VenvPython -m pip install -q --disable-pip-version-check --upgrade pip
& $VenvPython -m pip install -q --disable-pip-version-check -r build\requirements-app.txt -r packaging\requirements-build.txt
if ($LASTEXITCODE -ne 0) { Fail "pip could not install the build requirements" }

if (Test-Path dist\sightline) { Remove-Item -Recurse -Force dist\sightline }
& $VenvPython -m PyInstaller --noconfirm --log-level WARN --distpath dist --workpath build\pyinstaller packaging\sightline.spec
if ($LASTEXITCODE -ne 0) { Fail "PyInstaller failed" }

$env:QT_QPA_PLATFORM = "offscreen"
$Check = & dist\sightline\sightline-cli.exe --check 2>&1
Remove-Item Env:QT_QPA_PLATFORM
if ($LASTEXITCODE -ne 0 -or ($Check | Select-Object -Last 1) -ne "OK") { Fail "the bundle does not start: $Check" }

if ($env:SIGHTLINE_SIGN_COMMAND) {
    # e.g. signtool sign /fd sha256 /tr http://timestamp.digicert.com /td sha256 /a  (the file is appended)
    foreach ($Exe in "dist\sightline\Sightline.exe", "dist\sightline\sightline-cli.exe") {
        cmd /c "$env:SIGHTLINE_SIGN_COMMAND `"$Exe`""
        if ($LASTEXITCODE -ne 0) { Fail "signing $Exe failed" }
    }
}

$Version = & $VenvPython -c "import tomllib; print(tomllib.load(open('pyproject.toml', 'rb'))['project']['version'])"
if (-not $NoInstaller) {
    $Iscc = (Get-Command iscc -ErrorAction SilentlyContinue).Source
    if (-not $Iscc) { $Iscc = "${env:ProgramFiles(x86)}\Inno Setup 6\ISCC.exe" }
    if (-not (Test-Path $Iscc)) { Fail "Inno Setup 6 is missing (choco install innosetup, or jrsoftware.org)" }
    $IsccArgs = @("/Q", "/DAppVersion=$Version")
    if ($env:SIGHTLINE_SIGN_COMMAND) { $IsccArgs += @("/DSign", "/Ssightline=$($env:SIGHTLINE_SIGN_COMMAND) `$f") }
    & $Iscc @IsccArgs packaging\windows\sightline.iss
    if ($LASTEXITCODE -ne 0) { Fail "iscc failed" }
}

$BundleMiB = [math]::Round(((Get-ChildItem -Recurse -File dist\sightline | Measure-Object -Sum Length).Sum) / 1MB, 1)
Write-Output "bundle     dist\sightline  $BundleMiB MiB"
Get-ChildItem dist\sightline-*-setup.exe -ErrorAction SilentlyContinue |
    ForEach-Object { Write-Output ("installer  dist\{0}  {1} MiB" -f $_.Name, [math]::Round($_.Length / 1MB, 1)) }
Write-Output ("time       {0:N1} s" -f ((Get-Date) - $Start).TotalSeconds)
