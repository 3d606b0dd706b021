; Inno Setup 6 (6.3 or newer) script: Sightline's Windows installer, made from the PyInstaller bundle.
;
;   pyinstaller --noconfirm --distpath dist --workpath build\pyinstaller packaging\sightline.spec
;   iscc packaging\windows\sightline.iss
;
; (packaging\windows\build-windows.ps1 does both, with a smoke test in between.) Output:
; dist\sightline-<version>-windows-x64-setup.exe. It installs the bundle, a Start menu entry (and, if asked, a
; desktop shortcut), and an uninstaller listed under Settings > Apps. Per-user or for all users: the installer
; asks. Signing: iscc /DSign "/Ssightline=signtool sign /fd sha256 /tr <timestamp url> /td sha256 ... $f" (see
; docs/packaging.md); the bundle's .exe files are signed before this runs.
;
; Release step: keep AppVersion equal to pyproject.toml's version (tests/test_packaging.py checks), or pass
; /DAppVersion=x.y.z as CI does.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#define AppName "Sightline"
#define AppExe "Sightline.exe"
#define Root AddBackslash(SourcePath) + "..\.."

[Setup]
; AppId identifies the app to Windows across versions (upgrades, uninstall): never change it.
AppId={{9CB58F03-0C14-53D9-BCA4-DFF92933D7D2}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=The Sightline contributors
AppComments=Hidden-information chess: Reconnaissance Blind Chess, Blind Chess and MinitChess
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir={#Root}\dist
OutputBaseFilename=sightline-{#AppVersion}-windows-x64-setup
SetupIconFile={#Root}\build\icons\sightline.ico
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
CloseApplications=yes
#ifdef Sign
SignTool=sightline
SignedUninstaller=yes
#endif

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
; The whole one-directory bundle: Sightline.exe (the window), sightline-cli.exe (the command line) and _internal\.
Source: "{#Root}\dist\sightline\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"; Comment: "Hidden-information chess"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; Python writes nothing into the bundle, but a crashed run may leave __pycache__ folders from bot files.
Type: filesandordirs; Name: "{app}\_internal\__pycache__"
