// `kiln --help` and each command's `--help`: what it takes, on stdout.

const COMMON = `Every command takes:
  --json           one JSON document on stdout (an error too: {"error": {…}}), nothing else
  --key KEY        the API key (default: $KILN_KEY)
  --kiln ADDRESS   Kiln's address (default: $KILN_URL, else http://127.0.0.1:8080)
  -h, --help       this help
A vendor's model (meshy/…, tripo/…, fal/…) takes its key from $KILN_MESHY_KEY, $KILN_TRIPO_KEY
or $KILN_FAL_KEY; $KILN_LIBRARY (the studio's library key) names the library, and then
$KILN_KEY is optional.

Exit codes: 0 ok, 1 a task or export failed or Kiln refused, 2 bad usage, 3 no key or a
wrong key, 4 Kiln not reachable, 5 not enough credits, 130 interrupted.`;

export const HELP: Readonly<Record<string, string>> = {
  kiln: `kiln: Kiln's command line

Usage: kiln <command> [flags]

Commands:
  generate   make a model from a photo, 2–4 views, an image address or a prompt
  batch      make a model of every photo in a folder (resumable)
  ls         list the library
  export     optimise a model for the web, a game engine or a 3D printer, and download it
  share      make (or revoke) a model's public link
  credits    the balance and what moved it

\`kiln <command> --help\` says more.

${COMMON}`,
  generate: `Usage:
  kiln generate PHOTO [--model alpha|beta|gamma]
  kiln generate FRONT RIGHT [BACK LEFT] [--model alpha-multiview|beta-multiview]
  kiln generate --url https://… [--url …]
  kiln generate --prompt "a red ceramic vase" [--model beta-text]
  kiln generate PHOTO --model meshy/meshy-6      (a vendor's model: $KILN_MESHY_KEY)

Makes one model, shows its progress on stderr and writes the GLB.
  --model M          the model (default beta, beta-multiview or beta-text, by the input),
                     or a vendor's: meshy/…, tripo/…, fal/… (with its key; see below)
  --url ADDRESS      an image address Kiln fetches (repeat it for views)
  --prompt TEXT      make it from words instead of photos
  --out FILE         where to write the GLB (a folder: the model's own file name in it;
                     default: the model's own file name here)
  --name NAME        the model's name in the library
  --collection C     put it in this collection (a name or col_… id; made when missing)
Prints the file's path.

${COMMON}`,
  batch: `Usage: kiln batch FOLDER [--model alpha|beta|gamma|meshy/…] [--collection C] [--out FOLDER]

Makes one model of every photo (.png, .jpg, .jpeg, .webp) in FOLDER, a progress line each.
Resumable: FOLDER/.kiln-batch.json keeps each photo's Idempotency-Key (before its create is
sent) and task, so running the same command again after Ctrl-C, a kill or a lost connection
waits on the tasks already made and sends a create again only with the same key: nothing is
charged twice.
  --model M          alpha, beta or gamma (default beta), or a vendor's image model
  --collection C     put every model in this collection (a name or col_… id; made when missing)
  --out FOLDER       where to write the GLBs (default: FOLDER)
  --concurrency N    photos sent at once, 1–10 (default 3)

${COMMON}`,
  ls: `Usage: kiln ls [filters]

Lists the library, newest first.
  --collection C     a collection's name or col_… id
  --q TEXT           words of a name, a prompt or a photo's name
  --model M          one model
  --kind K           photo, views or prompt
  --status S         completed, failed or pending
  --favourite        starred models only
  --hidden           the hidden models instead
  --sort S           newest, oldest or credits
  --limit N          at most N models, 1–1000 (default 20)

${COMMON}`,
  export: `Usage: kiln export ID --target web|game|print [--height-mm MM] [--out FILE]

Optimises the model for a target (Kiln's presets), waits for the job and downloads the file:
a GLB for web (and AR) or a game engine, a watertight STL in millimetres for print.
  --target T         web, game or print
  --height-mm MM     print: the printed height (default 100)
  --out FILE         where to write it (a folder: its own file name in it)

${COMMON}`,
  share: `Usage: kiln share ID [--revoke]

Prints the model's public link (made when it has none; the same link again when it has).
  --revoke           stop sharing: the link answers 404 from now on

${COMMON}`,
  credits: `Usage: kiln credits [--history]

Prints the balance, as of when it was true.
  --history          every charge, refund and stated figure after it

${COMMON}`,
};
